import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { fliteArgs, fliteVoices, parseFliteVoiceList } from './voices';

const listing = readFileSync(new URL('../flite-system/fixtures/lv.txt', import.meta.url), 'utf8');

it('parses `flite -lv` (recorded from flite 2.2) and skips the clock-only awb_time', () => {
  expect(parseFliteVoiceList(listing)).toEqual(['kal', 'awb_time', 'kal16', 'awb', 'rms', 'slt']);
  const voices = fliteVoices('flite-system', parseFliteVoiceList(listing));
  expect(voices.map((v) => v.id)).toEqual([
    'flite-system:slt',
    'flite-system:rms',
    'flite-system:awb',
    'flite-system:kal16',
    'flite-system:kal',
  ]);
  expect(voices.find((v) => v.id.endsWith(':kal'))).toMatchObject({ sampleRate: 8000, quality: 'low', gender: 'male' });
  expect(voices.find((v) => v.id.endsWith(':awb'))).toMatchObject({ language: 'en-GB-scotland', quality: 'medium' });
  expect(() => parseFliteVoiceList('flite: command not found')).toThrow(/unexpected voice list/);
});

it('builds the command line: rate as duration stretch, pitch as the target mean F0', () => {
  expect(fliteArgs({ text: 'x', voice: 'kal16', rate: 1, pitch: 1, volume: 1 }, 'in.txt', 'out.wav')).toEqual([
    '-voice',
    'kal16',
    '-f',
    'in.txt',
    '-o',
    'out.wav',
  ]);
  expect(fliteArgs({ text: 'x', voice: 'slt', rate: 2, pitch: 1.5, volume: 1 }, 'in.txt', 'out.wav')).toEqual([
    '-voice',
    'slt',
    '--setf',
    'duration_stretch=0.5',
    '--setf',
    'int_f0_target_mean=255',
    '-f',
    'in.txt',
    '-o',
    'out.wav',
  ]);
  expect(() => fliteArgs({ text: 'x', voice: 'nope', rate: 1, pitch: 1, volume: 1 }, 'a', 'b')).toThrow(/no voice "nope"/);
});
