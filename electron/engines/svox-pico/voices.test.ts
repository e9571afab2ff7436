import { mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { pico2waveCommand } from '../pico2wave/adapter';
import { findPicoFiles, picoText, picoVoices } from './voices';

it('finds a voice only when both of its files are there', async () => {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-pico-'));
  await writeFile(path.join(dir, 'de-DE_ta.bin'), '');
  expect(findPicoFiles('de-DE', [dir])).toBeNull();
  await writeFile(path.join(dir, 'de-DE_gl0_sg.bin'), '');
  expect(findPicoFiles('de-DE', ['/nonexistent', dir])).toEqual({
    ta: path.join(dir, 'de-DE_ta.bin'),
    sg: path.join(dir, 'de-DE_gl0_sg.bin'),
  });
  expect(picoVoices('svox-pico', (v) => v === 'de-DE')).toEqual([
    { id: 'svox-pico:de-DE', name: 'German (female)', language: 'de-DE', gender: 'female', sampleRate: 16000, quality: 'medium' },
  ]);
});

it('says what to install when the non-free language files are missing', () => {
  expect(() => picoVoices('svox-pico', () => false)).toThrow(/libttspico-data/);
});

it('sets level, rate and pitch with Pico markup and keeps the text from opening markup of its own', () => {
  expect(picoText({ text: 'a < b', rate: 1, pitch: 1 })).toBe('<volume level="50">a   b');
  expect(picoText({ text: 'Hi', rate: 1.5, pitch: 0.8 })).toBe(
    '<volume level="50"><speed level="150"><pitch level="80">Hi</pitch></speed>',
  );
  expect(picoText({ text: 'Hi', rate: 0.1, pitch: 3 })).toBe('<volume level="50"><speed level="20"><pitch level="200">Hi</pitch></speed>');
});

it('runs pico2wave with the language and the text on stdin (it reads stdin when given no words)', () => {
  expect(pico2waveCommand({ text: 'Bonjour', voice: 'fr-FR', rate: 1.2, pitch: 1, volume: 1 }, '/t/out.wav')).toEqual({
    args: ['-l', 'fr-FR', '-w', '/t/out.wav'],
    input: '<volume level="50"><speed level="120">Bonjour</speed>',
  });
});
