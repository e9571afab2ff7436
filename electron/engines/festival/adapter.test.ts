import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { festivalAdapter, parseFestivalVoices } from './adapter';

it('parses the voice listing (recorded from Festival 2.5 with four Debian voices)', () => {
  const voices = parseFestivalVoices(readFileSync(new URL('./fixtures/voices.tsv', import.meta.url), 'utf8'));
  expect(voices).toEqual([
    { id: 'festival:pc_diphone', name: 'pc diphone', language: 'it', gender: 'male', sampleRate: 16000, quality: 'low' },
    { id: 'festival:cmu_us_slt_arctic_hts', name: 'cmu us slt arctic hts', language: 'en-US', gender: 'female', sampleRate: 16000, quality: 'medium' },
    { id: 'festival:ked_diphone', name: 'ked diphone', language: 'en-US', gender: 'male', sampleRate: 16000, quality: 'low' },
    { id: 'festival:kal_diphone', name: 'kal diphone', language: 'en-US', gender: 'male', sampleRate: 16000, quality: 'low' },
  ]);
  expect(parseFestivalVoices('SIOD ERROR: unbound variable\n')).toEqual([]);
});

it('is honest about the options: rate and volume yes, pitch no', () => {
  expect(festivalAdapter().capabilities).toEqual({ rate: true, pitch: false, volume: true });
});
