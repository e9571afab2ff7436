/** Naming and ordering voices: pure selectors, on engine and voice lists shaped as GET /engines returns them. */
import { describe, expect, it } from 'vitest';
import type { EngineSummary, Job, Voice } from '../api/contract';
import { engineName, filterVoices, languageOptions, sortVoices, voiceLabel, voiceOptionLabel, type VoiceFilters } from './engines-slice';
import { jobTitle } from './jobs-slice';

const engine = (id: string, name: string): EngineSummary => ({
  id,
  name,
  available: true,
  voiceCount: 0,
  languages: [],
  defaultVoice: null,
  capabilities: {} as EngineSummary['capabilities'],
});
const voice = (id: string, name: string, language: string): Voice => ({ id, name, language, sampleRate: 16000 });

const engines = [
  engine('svox-pico', 'SVOX Pico (embedded)'),
  engine('pico2wave', 'SVOX Pico (pico2wave)'),
  engine('espeak-ng', 'eSpeak NG (embedded)'),
];
const voices = {
  'svox-pico': [voice('svox-pico:en-US', 'US English (female)', 'en-US')],
  pico2wave: [voice('pico2wave:en-US', 'US English (female)', 'en-US')],
  'espeak-ng': [
    voice('espeak-ng:bg', 'Bulgarian', 'bg'),
    voice('espeak-ng:bn', 'Bengali', 'bn'),
    voice('espeak-ng:ba', 'Bashkir', 'ba'),
    voice('espeak-ng:af', 'afrikaans', 'af'),
  ],
};
const filters: VoiceFilters = { engine: '', language: '', gender: '', query: '', favouritesOnly: false };
const state = { engines, voices, favourites: [] as string[], filters };

describe('voice labels', () => {
  it('name the engine, so equal voice names on two engines differ', () => {
    expect(voiceLabel(state, 'svox-pico:en-US')).toBe('US English (female) · SVOX Pico (embedded)');
    expect(voiceLabel(state, 'pico2wave:en-US')).toBe('US English (female) · SVOX Pico (pico2wave)');
    expect(voiceOptionLabel(state, voices.pico2wave[0]!)).toBe('US English (female) · SVOX Pico (pico2wave) · en-US');
  });

  it('fall back to the id for a voice or engine the list does not have', () => {
    expect(voiceLabel(state, 'festival:kal_diphone')).toBe('festival:kal_diphone');
    expect(engineName(state, 'festival')).toBe('festival');
    expect(voiceOptionLabel({ engines: [] }, voices['svox-pico'][0]!)).toBe('US English (female) · svox-pico · en-US');
  });
});

describe('voice order', () => {
  it('sorts by displayed name, case-insensitively, then by engine name', () => {
    const names = sortVoices(state, Object.values(voices).flat()).map((v) => `${v.name}/${v.id.split(':')[0]}`);
    expect(names).toEqual([
      'afrikaans/espeak-ng',
      'Bashkir/espeak-ng',
      'Bengali/espeak-ng',
      'Bulgarian/espeak-ng',
      'US English (female)/svox-pico',
      'US English (female)/pico2wave',
    ]);
  });

  it('the Voices table: favourites first, each part by name', () => {
    const ids = filterVoices({ ...state, favourites: ['espeak-ng:bg', 'pico2wave:en-US'] }).map((v) => v.id);
    expect(ids).toEqual(['espeak-ng:bg', 'pico2wave:en-US', 'espeak-ng:af', 'espeak-ng:ba', 'espeak-ng:bn', 'svox-pico:en-US']);
  });

  it('search finds a voice by its engine name', () => {
    const ids = filterVoices({ ...state, filters: { ...filters, query: 'pico2wave' } }).map((v) => v.id);
    expect(ids).toEqual(['pico2wave:en-US']);
  });

  it('language options are named the same way as the table, sorted by name', () => {
    const options = languageOptions(state);
    const names = new Intl.DisplayNames(undefined, { type: 'language' });
    expect(options.find((o) => o.code === 'bn')?.name).toBe(names.of('bn'));
    expect(options.map((o) => o.name)).toEqual(
      [...options.map((o) => o.name)].sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' })),
    );
  });
});

describe('jobTitle', () => {
  it('is the gateway title, or a placeholder for a blank one', () => {
    expect(jobTitle({ title: 'Chapter One The lighthouse stood…' } as Job)).toBe('Chapter One The lighthouse stood…');
    expect(jobTitle({ title: '  ' } as Job)).toBe('Untitled');
  });
});
