/** System engines' temp folders under a root the gateway owns, and their clean-up after a killed process. */
import { spawn } from 'node:child_process';
import { watch } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { encodeWav } from '../audio/wav';
import { until } from '../testing/until';
import { clearTempDir, synthesizeWithTool } from './cli';
import { cliAdapter } from './cli-adapter';
import { printing } from './identity';
import { knownEngines } from './installed';
import { EmbeddedPool } from './worker-pool';

const scratch: string[] = [];
async function scratchDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-tempdir-test-'));
  scratch.push(dir);
  return dir;
}
afterAll(async () => {
  await Promise.all(scratch.map((dir) => rm(dir, { recursive: true, force: true })));
});

async function script(dir: string, body: string): Promise<string> {
  const file = path.join(dir, 'engine.sh');
  await writeFile(file, `#!/bin/sh\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

describe('the temp root of system engines', () => {
  it('puts each request folder in the configured root, creating it, and removes the folder afterwards', async () => {
    const base = await scratchDir();
    const root = path.join(base, 'data', 'tmp');
    const wav = encodeWav({ sampleRate: 16000, samples: Int16Array.from([0, 1000, -1000, 0]) });
    await writeFile(path.join(base, 'fixed.wav'), wav);
    const engine = await script(
      base,
      `[ "$1" = --version ] && { echo "fake 1"; exit; }; dirname "$2" > "${base}/seen"; cp "${base}/fixed.wav" "$2"`,
    );
    const adapter = cliAdapter(
      {
        id: 'fake',
        name: 'Fake',
        capabilities: { rate: false, pitch: false, volume: false },
        program: engine,
        installHint: 'Install fake.',
        identity: printing('the fake engine', ['--version'], /^fake 1$/m),
        voices: async () => [{ id: 'fake:v', name: 'V', language: 'en', sampleRate: 16000 }],
        command: (_request, files) => ({ args: [files.textFile, files.wavFile] }),
      },
      { tempDir: root },
    );
    expect((await adapter.probe()).available).toBe(true);
    const pcm = await adapter.synthesize({ text: 'Hi.', voice: 'v', rate: 1, pitch: 1, volume: 1 }, { lane: 'interactive' });
    expect(pcm.samples).toHaveLength(4);
    const used = (await readFile(path.join(base, 'seen'), 'utf8')).trim();
    expect(path.dirname(used)).toBe(root);
    expect(path.basename(used)).toMatch(/^orator-/);
    expect(await readdir(root)).toEqual([]);
  });

  it('reaches the real system engines through knownEngines({ tempDir })', async () => {
    const root = path.join(await scratchDir(), 'tmp');
    await mkdir(root);
    const pool = new EmbeddedPool({ workerFile: path.resolve('dist/synth-worker.mjs'), threads: 1 });
    try {
      const engines = knownEngines(pool, { tempDir: root }).filter((e) => e.kind === 'system');
      let engine;
      let voice = '';
      for (const candidate of engines) {
        const probe = await candidate.probe();
        if (probe.available) {
          engine = candidate;
          voice = probe.defaultVoice.slice(candidate.id.length + 1);
          break;
        }
      }
      expect(engine, 'a system engine on this machine (CI installs espeak-ng, flite, festival)').toBeDefined();
      const created: string[] = [];
      let seen!: () => void;
      // the watcher's events come after the synthesis that caused them
      const requestFolder = new Promise<void>((resolve) => (seen = resolve));
      const watcher = watch(root, (_event, name) => {
        if (!name) return;
        created.push(name.toString());
        if (name.toString().startsWith('orator-')) seen();
      });
      try {
        const pcm = await engine!.synthesize({ text: 'Temporary files.', voice, rate: 1, pitch: 1, volume: 1 }, { lane: 'interactive' });
        expect(pcm.samples.length).toBeGreaterThan(1000);
        const noFolder = new Promise<void>((resolve) => setTimeout(resolve, 5000).unref());
        await Promise.race([requestFolder, noFolder]);
      } finally {
        watcher.close();
      }
      expect(
        created.some((name) => name.startsWith('orator-')),
        `${engine!.id} created: ${created.join(', ')}`,
      ).toBe(true);
      expect(await readdir(root)).toEqual([]);
    } finally {
      await pool.close();
    }
  }, 60_000);

  it('keeps the folder of a process killed mid-synthesis, which clearTempDir then removes (only orator-* entries)', async () => {
    const base = await scratchDir();
    const root = path.join(base, 'tmp');
    const hung = await script(base, `echo $$ > "${base}/engine.pid"; exec sleep 60`);
    // A separate Node process synthesizing with a hung engine, killed like a gateway would be.
    const runner = path.join(base, 'runner.mts');
    const cli = fileURLToPath(new URL('./cli.ts', import.meta.url));
    await writeFile(
      runner,
      `import { synthesizeWithTool } from ${JSON.stringify(cli)};\n` +
        `await synthesizeWithTool(${JSON.stringify(hung)}, (f) => ({ args: [f.textFile, f.wavFile] }), 'Never finished.', { tempDir: ${JSON.stringify(root)} });\n`,
    );
    const child = spawn(process.execPath, ['--import', 'tsx', runner], { stdio: 'ignore' });
    const exited = new Promise((resolve) => child.on('exit', resolve));
    try {
      const enginePid = Number(
        await until(async () => (await readFile(path.join(base, 'engine.pid'), 'utf8').catch(() => '')).trim() || undefined, 15_000),
      );
      const left = await readdir(root);
      expect(left).toHaveLength(1);
      expect(left[0]).toMatch(/^orator-/);
      child.kill('SIGKILL');
      await exited;
      process.kill(enginePid, 'SIGKILL');
      // The killed process could not clean up: its folder, with the request text, is still there.
      expect(await readdir(root)).toEqual(left);
      expect(await readFile(path.join(root, left[0]!, 'in.txt'), 'utf8')).toBe('Never finished.');

      await writeFile(path.join(root, 'not-ours.txt'), 'keep');
      expect(await clearTempDir(root)).toBe(1);
      expect(await readdir(root)).toEqual(['not-ours.txt']);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  }, 30_000);

  it('clearTempDir creates a missing folder, and synthesis recreates a folder removed under it', async () => {
    const root = path.join(await scratchDir(), 'a', 'tmp');
    expect(await clearTempDir(root)).toBe(0);
    expect(await readdir(root)).toEqual([]);
    await rm(root, { recursive: true });
    const base = path.dirname(root);
    const wav = encodeWav({ sampleRate: 8000, samples: Int16Array.from([1, 2]) });
    await writeFile(path.join(base, 'fixed.wav'), wav);
    const engine = await script(base, `cp "${base}/fixed.wav" "$1"`);
    const pcm = await synthesizeWithTool(engine, (f) => ({ args: [f.wavFile] }), 'x', { tempDir: root });
    expect(pcm.samples).toHaveLength(2);
    expect(await readdir(root)).toEqual([]);
  });
});
