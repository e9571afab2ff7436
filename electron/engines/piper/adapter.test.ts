import { chmod, copyFile, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { confirmIdentity } from '../identity';
import { PIPER_IDENTITY, piperAdapter, piperCommand } from './adapter';
import { findPiperVoice, scanPiperModels } from './voice-config';

// Voice configs in the format Piper's voice repository publishes (trimmed phoneme maps).
const fixture = (name: string) => fileURLToPath(new URL(`./fixtures/${name}`, import.meta.url));
let modelsDir: string;

beforeAll(async () => {
  modelsDir = await mkdtemp(path.join(os.tmpdir(), 'orator-piper-'));
  await mkdir(path.join(modelsDir, 'vctk'));
  for (const [name, folder] of [
    ['en_US-lessac-medium', '.'],
    ['en_GB-vctk-medium', 'vctk'],
  ] as const) {
    await writeFile(path.join(modelsDir, folder, `${name}.onnx`), 'weights');
    await copyFile(fixture(`${name}.onnx.json`), path.join(modelsDir, folder, `${name}.onnx.json`));
  }
  await writeFile(path.join(modelsDir, 'broken.onnx'), 'weights');
  await writeFile(path.join(modelsDir, 'broken.onnx.json'), '{"audio": {}}');
  await writeFile(path.join(modelsDir, 'lonely.onnx'), 'weights without a config');
});

describe('Piper voice files', () => {
  it('become one voice per speaker, with language, rate and quality from the .onnx.json', async () => {
    const { models, problems } = await scanPiperModels([modelsDir]);
    expect(problems).toEqual([`${path.join(modelsDir, 'broken.onnx.json')} has no audio.sample_rate: not a Piper voice config`]);
    expect(models.map((m) => [m.key, m.language, m.sampleRate, m.quality, m.speakers.length])).toEqual([
      ['en_US-lessac-medium', 'en-US', 22050, 'medium', 1],
      ['en_GB-vctk-medium', 'en-GB', 22050, 'medium', 3],
    ]);
    expect(findPiperVoice(models, 'en_GB-vctk-medium#p264')?.speaker).toBe(2);
    expect(findPiperVoice(models, 'en_GB-vctk-medium#nobody')).toBeNull();
  });

  it('are run with the text on stdin and rate as length scale', async () => {
    const { models } = await scanPiperModels([modelsDir]);
    const lessac = models[0]!;
    expect(piperCommand(lessac, 0, 1, 'Hi.', '/t/out.wav')).toEqual({
      args: ['--model', lessac.model, '--config', lessac.config, '--output-file', '/t/out.wav'],
      input: 'Hi.',
    });
    const vctk = models[1]!;
    expect(piperCommand(vctk, 2, 1.25, 'Hi.', '/t/out.wav').args).toEqual([
      '--model',
      vctk.model,
      '--config',
      vctk.config,
      '--output-file',
      '/t/out.wav',
      '--speaker',
      '2',
      '--length-scale',
      '0.8',
    ]);
  });
});

describe('the piper program', () => {
  async function fakeProgram(usage: string): Promise<string> {
    const file = path.join(await mkdtemp(path.join(os.tmpdir(), 'orator-piper-bin-')), 'piper');
    await writeFile(file, `#!/bin/sh\necho "${usage}" >&2\n`);
    await chmod(file, 0o755);
    return file;
  }

  it("is told apart from Debian's unrelated piper by its usage", async () => {
    const piperTts = await fakeProgram('usage: piper [options]\n   -m  FILE  --model       FILE  path to onnx model file');
    await expect(confirmIdentity(piperTts, PIPER_IDENTITY)).resolves.toContain('--model');
    const ratbag = await fakeProgram('usage: piper [-h] [--version] GTK application to configure gaming devices');
    await expect(confirmIdentity(ratbag, PIPER_IDENTITY)).rejects.toThrow(`${ratbag} is not Piper TTS`);
    expect(await piperAdapter([modelsDir], { program: ratbag }).probe()).toMatchObject({
      available: false,
      reason: expect.stringContaining('is not Piper TTS'),
    });
  });

  it('lists the voices of the model folders and reports the skipped ones', async () => {
    const adapter = piperAdapter([modelsDir], { program: await fakeProgram('--model FILE') });
    const probe = await adapter.probe();
    if (!probe.available) throw new Error(probe.reason);
    expect(probe.voices.map((v) => v.id)).toEqual([
      'piper:en_US-lessac-medium',
      'piper:en_GB-vctk-medium#p239',
      'piper:en_GB-vctk-medium#p236',
      'piper:en_GB-vctk-medium#p264',
    ]);
    expect(probe.voices[0]).toMatchObject({ quality: 'high', sampleRate: 22050 });
    expect(probe.warnings).toHaveLength(1);
  });
});
