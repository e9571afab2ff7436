import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { languageFromName, readModelFolder, scanModelFolders } from './models';

async function folder(root: string, name: string, files: string[]): Promise<string> {
  const dir = path.join(root, name);
  await mkdir(dir, { recursive: true });
  for (const file of files) {
    if (file.endsWith('/')) {
      await mkdir(path.join(dir, file), { recursive: true });
      await writeFile(path.join(dir, file, 'phontab'), '');
    } else
      await writeFile(path.join(dir, file), file.endsWith('.json') ? '{"audio":{"sample_rate":22050},"language":{"code":"en_GB"}}' : 'x');
  }
  return dir;
}

it('recognises the VITS/Piper, Kokoro and Matcha layouts of sherpa-onnx', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'orator-models-'));
  const vits = await folder(root, 'vits-piper-en_GB-alba-medium', [
    'en_GB-alba-medium.onnx',
    'en_GB-alba-medium.onnx.json',
    'tokens.txt',
    'espeak-ng-data/',
  ]);
  expect(await readModelFolder(vits)).toEqual({
    spec: {
      dir: vits,
      kind: 'vits',
      model: path.join(vits, 'en_GB-alba-medium.onnx'),
      tokens: path.join(vits, 'tokens.txt'),
      dataDir: path.join(vits, 'espeak-ng-data'),
    },
    key: 'vits-piper-en_GB-alba-medium',
    language: 'en-GB',
  });
  const kokoro = await folder(root, 'kokoro-en-v0_19', ['model.onnx', 'voices.bin', 'tokens.txt', 'espeak-ng-data/']);
  expect((await readModelFolder(kokoro))?.spec).toMatchObject({ kind: 'kokoro', voices: path.join(kokoro, 'voices.bin') });
  const matcha = await folder(root, 'matcha-icefall-en_US-ljspeech', [
    'model-steps-3.onnx',
    'vocos-22khz-univ.onnx',
    'tokens.txt',
    'espeak-ng-data/',
  ]);
  expect((await readModelFolder(matcha))?.spec).toMatchObject({
    kind: 'matcha',
    model: path.join(matcha, 'model-steps-3.onnx'),
    vocoder: path.join(matcha, 'vocos-22khz-univ.onnx'),
  });
  expect((await readModelFolder(matcha))?.language).toBe('en-US');
});

it('leaves plain Piper voices to the piper engine and reports malformed folders by name', async () => {
  const root = await mkdtemp(path.join(os.tmpdir(), 'orator-models-'));
  await folder(root, 'plain-piper', ['en_US-amy-low.onnx', 'en_US-amy-low.onnx.json']);
  const noTokens = await folder(root, 'no-tokens', ['model.onnx', 'espeak-ng-data/']);
  const ambiguous = await folder(root, 'two-models', ['a.onnx', 'b.onnx', 'tokens.txt', 'lexicon.txt']);
  await folder(root, 'not-a-model', ['readme.txt']);
  const { folders, problems } = await scanModelFolders([root, path.join(root, 'missing')]);
  expect(folders).toEqual([]);
  expect(problems).toEqual([
    `${noTokens}: no tokens.txt beside the .onnx model (sherpa-onnx needs it)`,
    `${ambiguous}: 2 .onnx files and no voices.bin: cannot tell which is the model`,
  ]);
});

it('reads a locale out of a folder name', () => {
  expect(languageFromName('vits-piper-de_DE-thorsten-high')).toBe('de-DE');
  expect(languageFromName('kokoro-multi-lang-v1_0')).toBe('und');
});
