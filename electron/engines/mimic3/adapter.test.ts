import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { mimic3Command, parseMimic3Voices } from './adapter';

it('lists the downloaded voices of `mimic3 --voices`, not its download catalogue', () => {
  // The tab-separated format of Mimic 3's print_voices (KEY LANGUAGE NAME DESCRIPTION LOCATION).
  const voices = parseMimic3Voices(readFileSync(new URL('./fixtures/voices.tsv', import.meta.url), 'utf8'));
  expect(voices.map((v) => [v.id, v.language])).toEqual([
    ['mimic3:de_DE/thorsten_low', 'de-DE'],
    ['mimic3:en_UK/apope_low', 'en-GB'],
    ['mimic3:en_US/vctk_low', 'en-US'],
  ]);
  expect(voices[0]).toMatchObject({ name: 'thorsten_low (German male)', sampleRate: 22050, quality: 'high' });
});

it('sends text on stdin and takes the WAV from stdout', () => {
  expect(mimic3Command('en_US/vctk_low#p239', 1, 'Hi.')).toEqual({
    args: ['--voice', 'en_US/vctk_low#p239', '--stdout'],
    input: 'Hi.',
    wavOnStdout: true,
  });
  expect(mimic3Command('en_UK/apope_low', 0.5, 'Hi.').args).toEqual(['--voice', 'en_UK/apope_low', '--stdout', '--length-scale', '2']);
});
