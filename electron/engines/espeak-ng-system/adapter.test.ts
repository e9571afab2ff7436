import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { espeakCommand, parseEspeakVoices, parseMbrolaVoices } from './adapter';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

describe('espeak-ng --voices (recorded from espeak-ng 1.51, Debian 12)', () => {
  it('gives one voice per language with gender and BCP 47 tags', () => {
    const voices = parseEspeakVoices(fixture('voices.txt'), 'espeak-ng-system');
    expect(voices).toHaveLength(130);
    expect(voices.find((v) => v.id === 'espeak-ng-system:en-us')).toEqual({
      id: 'espeak-ng-system:en-us',
      name: 'English (America)',
      language: 'en-US',
      gender: 'male',
      sampleRate: 22050,
      quality: 'low',
    });
    expect(voices.find((v) => v.id === 'espeak-ng-system:en-gb-x-rp')?.language).toBe('en-GB-x-rp');
  });

  it('lists only the MBROLA voices whose database is installed', () => {
    const voices = parseMbrolaVoices(fixture('voices-mb.txt'), 'espeak-ng-system', (db) => db === 'us1');
    expect(voices).toEqual([
      { id: 'espeak-ng-system:mb-us1', name: 'us-mbrola-1', language: 'en-US', gender: 'female', sampleRate: 16000, quality: 'low' },
    ]);
    expect(parseMbrolaVoices(fixture('voices-mb.txt'), 'x', () => true).length).toBe(90);
  });
});

it('writes a WAV file from a text file with rate, pitch and amplitude', () => {
  const command = espeakCommand(
    { text: 'x', voice: 'en-us', rate: 2, pitch: 0.5, volume: 1.5 },
    { textFile: '/t/in.txt', wavFile: '/t/out.wav' },
  );
  expect(command.args).toEqual(['-v', 'en-us', '-s', '350', '-p', '25', '-a', '150', '-f', '/t/in.txt', '-w', '/t/out.wav']);
});
