import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { festivalAdapter, festivalCommand, parseFestivalVoices } from './adapter';

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

it('sets the speed the way each kind of voice takes it', () => {
  const files = { textFile: '/t/in.txt', wavFile: '/t/out.wav' };
  expect(festivalCommand({ text: 'x', voice: 'kal_diphone', rate: 1, pitch: 1, volume: 1 }, files).args).toEqual([
    '-F', '16000', '-scale', '1', '-eval', '(voice_kal_diphone)', '-o', '/t/out.wav', '/t/in.txt',
  ]);
  expect(festivalCommand({ text: 'x', voice: 'kal_diphone', rate: 2, pitch: 1, volume: 0.5 }, files).args).toEqual([
    '-F', '16000', '-scale', '0.5', '-eval', '(voice_kal_diphone)', '-eval', "(Parameter.set 'Duration_Stretch 0.5)", '-o', '/t/out.wav', '/t/in.txt',
  ]);
  expect(festivalCommand({ text: 'x', voice: 'cmu_us_slt_arctic_hts', rate: 2, pitch: 1, volume: 1 }, files).args).toContain(
    '(set! hts_engine_params (cons (list "-r" 2) hts_engine_params))',
  );
});
