import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { macosSayAdapter, parseSayVoices, sayCommand } from './adapter';

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url), 'utf8');

it("parses `say -v '?'` of macOS 10.14 (a published transcript)", () => {
  const voices = parseSayVoices(fixture('say-v-macos-10.14.txt'));
  expect(voices).toHaveLength(47);
  expect(voices[0]).toEqual({ id: 'macos-say:Alex', name: 'Alex', language: 'en-US', sampleRate: 22050, quality: 'medium' });
  expect(voices.find((v) => v.name === 'Fiona')?.language).toBe('en-scotland');
  expect(voices.find((v) => v.name === 'Mei-Jia')?.language).toBe('zh-TW');
});

it('keeps names with spaces and parentheses of later macOS, once each, premium voices ranked high', () => {
  const voices = parseSayVoices(fixture('say-v-macos-14.txt'));
  expect(voices.map((v) => v.name)).toEqual([
    'Alex',
    'Tessa',
    'Eddy (English (UK))',
    'Eddy (English (US))',
    'Daniel',
    'Samantha',
    'Aman (English (India))',
    'Ava (Premium)',
  ]);
  expect(voices.find((v) => v.name === 'Eddy (English (UK))')?.language).toBe('en-GB');
  expect(voices.find((v) => v.name === 'Ava (Premium)')?.quality).toBe('high');
});

it('writes 16-bit WAV at a fixed rate from a text file', () => {
  expect(
    sayCommand(
      { text: 'x', voice: 'Eddy (English (US))', rate: 1.2, pitch: 1, volume: 1 },
      { textFile: '/t/in.txt', wavFile: '/t/out.wav' },
    ).args,
  ).toEqual([
    '-v',
    'Eddy (English (US))',
    '-r',
    '210',
    '-o',
    '/t/out.wav',
    '--file-format=WAVE',
    '--data-format=LEI16@22050',
    '-f',
    '/t/in.txt',
  ]);
});

it('is unavailable elsewhere than on macOS', async () => {
  expect(await macosSayAdapter({ platform: 'linux' }).probe()).toEqual({
    available: false,
    reason: 'macOS speech (say) exists only on macOS.',
  });
});
