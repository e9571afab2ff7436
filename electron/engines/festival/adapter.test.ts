import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { festivalAdapter, festivalCommand, parseFestivalVoices } from './adapter';

it('parses the voice listing (recorded from Festival 2.5 with four Debian voices)', () => {
  const voices = parseFestivalVoices(readFileSync(new URL('./fixtures/voices.tsv', import.meta.url), 'utf8'));
  expect(voices).toEqual([
    { id: 'festival:pc_diphone', name: 'PC (Italian, male, diphone)', language: 'it', gender: 'male', sampleRate: 16000, quality: 'low' },
    {
      id: 'festival:cmu_us_slt_arctic_hts',
      name: 'SLT (US English, female, HTS)',
      language: 'en-US',
      gender: 'female',
      sampleRate: 16000,
      quality: 'medium',
    },
    {
      id: 'festival:ked_diphone',
      name: 'Ked (US English, male, diphone)',
      language: 'en-US',
      gender: 'male',
      sampleRate: 16000,
      quality: 'low',
    },
    {
      id: 'festival:kal_diphone',
      name: 'Kal (US English, male, diphone)',
      language: 'en-US',
      gender: 'male',
      sampleRate: 16000,
      quality: 'low',
    },
  ]);
  expect(parseFestivalVoices('SIOD ERROR: unbound variable\n')).toEqual([]);
});

it('names voices from their ids the way people know them, ids unchanged', () => {
  const names = parseFestivalVoices(
    [
      'us1_mbrola\tenglish\tfemale\tamerican',
      'cmu_us_awb_cg\tenglish\tmale\tscottish',
      'nitech_us_jmk_arctic_hts\tenglish\tmale\tamerican',
      'cmu_us_rms_arctic_clunits\tenglish\tmale\tamerican',
      'rab_diphone\tenglish\tnil\tbritish',
      'el_diphone\tspanish\tmale\tnil',
      'odd_voice\tnil\tnil\tnil',
    ].join('\n'),
  ).map((v) => `${v.id} = ${v.name}`);
  expect(names).toEqual([
    'festival:us1_mbrola = US1 (US English, female, MBROLA)',
    'festival:cmu_us_awb_cg = AWB (Scottish English, male, clustergen)',
    'festival:nitech_us_jmk_arctic_hts = JMK (US English, male, HTS)',
    'festival:cmu_us_rms_arctic_clunits = RMS (US English, male, unit selection)',
    'festival:rab_diphone = Rab (British English, diphone)',
    'festival:el_diphone = El (Spanish, male, diphone)',
    'festival:odd_voice = Odd Voice',
  ]);
});

it('is honest about the options: rate and volume yes, pitch no', () => {
  expect(festivalAdapter().capabilities).toEqual({ rate: true, pitch: false, volume: true });
});

it('sets the speed the way each kind of voice takes it', () => {
  const files = { textFile: '/t/in.txt', wavFile: '/t/out.wav' };
  expect(festivalCommand({ text: 'x', voice: 'kal_diphone', rate: 1, pitch: 1, volume: 1 }, files).args).toEqual([
    '-F',
    '16000',
    '-scale',
    '1',
    '-eval',
    '(voice_kal_diphone)',
    '-o',
    '/t/out.wav',
    '/t/in.txt',
  ]);
  expect(festivalCommand({ text: 'x', voice: 'kal_diphone', rate: 2, pitch: 1, volume: 0.5 }, files).args).toEqual([
    '-F',
    '16000',
    '-scale',
    '0.5',
    '-eval',
    '(voice_kal_diphone)',
    '-eval',
    "(Parameter.set 'Duration_Stretch 0.5)",
    '-o',
    '/t/out.wav',
    '/t/in.txt',
  ]);
  expect(festivalCommand({ text: 'x', voice: 'cmu_us_slt_arctic_hts', rate: 2, pitch: 1, volume: 1 }, files).args).toContain(
    '(set! hts_engine_params (cons (list "-r" 2) hts_engine_params))',
  );
});
