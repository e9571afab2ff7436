import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../contract';
import { encodeWav } from '../audio/wav';
import { findExecutable, runToolRaw, synthesizeWithTool } from './cli';
import { cliAdapter } from './cli-adapter';
import { printing } from './identity';

const dirs: string[] = [];
afterAll(() => Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true }))));

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-cli-'));
  dirs.push(dir);
  return dir;
}

/** A program running `body`; asked "--version", it says it is the fake engine (FAKE_IDENTITY). */
async function script(body: string): Promise<string> {
  const dir = await tempDir();
  const file = path.join(dir, 'engine.sh');
  await writeFile(file, `#!/bin/sh\n[ "$1" = --version ] && { echo "fake engine 1.0"; exit 0; }\n${body}\n`);
  await chmod(file, 0o755);
  return file;
}

const request = { text: 'Hello there.', voice: 'v', rate: 1, pitch: 1, volume: 1 };

describe('runToolRaw', () => {
  it('kills a hung engine and its children after the timeout and fails with engine_timeout', async () => {
    const hung = await script('sleep 30 & wait');
    const started = Date.now();
    const error = await runToolRaw(hung, [], { timeoutMs: 300 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('engine_timeout');
    expect((error as ApiError).status).toBe(504);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it('passes stdin and reports a failing program with what it printed', async () => {
    const echo = await script('cat');
    expect((await runToolRaw(echo, [], { input: 'über' })).stdout.toString('utf8')).toBe('über');
    const failing = await script('echo "no such voice" >&2; exit 3');
    await expect(runToolRaw(failing, [])).rejects.toThrow(/exited with 3: no such voice/);
  });

  it('stops on abort', async () => {
    const hung = await script('sleep 30');
    const abort = new AbortController();
    setTimeout(() => abort.abort(new Error('cancelled')), 100);
    await expect(runToolRaw(hung, [], { signal: abort.signal })).rejects.toThrow('cancelled');
  });
});

describe('synthesizeWithTool', () => {
  it('reads the WAV from the file or from stdout', async () => {
    const wav = encodeWav({ sampleRate: 16000, samples: Int16Array.from([0, 1000, -1000, 0]) });
    const dir = await tempDir();
    await writeFile(path.join(dir, 'fixed.wav'), wav);
    const toFile = await script(`cp "${dir}/fixed.wav" "$2"; test "$(cat "$1")" = "Hello there."`);
    const fromFile = await synthesizeWithTool(toFile, (f) => ({ args: [f.textFile, f.wavFile] }), 'Hello there.');
    expect([fromFile.sampleRate, ...fromFile.samples]).toEqual([16000, 0, 1000, -1000, 0]);
    const toStdout = await script(`cat > /dev/null; cat "${dir}/fixed.wav"`);
    const fromStdout = await synthesizeWithTool(toStdout, () => ({ args: [], input: 'x', wavOnStdout: true }), 'x');
    expect(fromStdout.samples).toHaveLength(4);
  });
});

describe('findExecutable', () => {
  it('finds programs on PATH or in extra folders, and nothing else', async () => {
    const file = await script('true');
    expect(await findExecutable('engine.sh', [path.dirname(file)], { PATH: '/nonexistent' })).toBe(file);
    expect(await findExecutable('engine.sh', [], { PATH: path.dirname(file) })).toBe(file);
    expect(await findExecutable('engine.sh', [], { PATH: '/nonexistent' })).toBeNull();
    expect(await findExecutable(path.dirname(file), [], {})).toBeNull();
  });
});

describe('cliAdapter', () => {
  const spec = {
    id: 'fake',
    name: 'Fake',
    capabilities: { rate: false, pitch: false, volume: false },
    installHint: 'Install fake.',
    identity: printing('the fake engine', ['--version'], /^fake engine 1\.0$/m),
    voices: async () => [{ id: 'fake:v', name: 'V', language: 'en', sampleRate: 16000 }],
    command: () => ({ args: [] }),
  };

  it('is unavailable with the install hint when the program is missing, and on other platforms', async () => {
    const missing = await cliAdapter({ ...spec, program: 'orator-no-such-engine' }).probe();
    expect(missing).toEqual({ available: false, reason: 'orator-no-such-engine was not found on PATH. Install fake.' });
    const elsewhere = await cliAdapter({ ...spec, program: 'sh', platform: 'darwin' }, { platform: 'linux' }).probe();
    expect(elsewhere).toEqual({ available: false, reason: 'Fake exists only on macOS.' });
  });

  it('is unavailable, and never runs, when its program is another one or can be changed by others', async () => {
    const dir = await tempDir();
    const marker = path.join(dir, 'ran-with-text');
    // Another program: it would take the text on stdin as commands.
    const other = path.join(dir, 'other');
    await writeFile(other, `#!/bin/sh\ntext=$(cat)\n[ -n "$text" ] && echo "$text" > "${marker}"\nexit 0\n`);
    await chmod(other, 0o755);
    const wrong = cliAdapter({ ...spec, program: 'unused', command: () => ({ args: [], input: 'text' }) }, { program: other });
    expect(await wrong.probe()).toEqual({
      available: false,
      reason: `${other} is not the fake engine (its answer to "--version" does not say so).`,
    });
    await expect(wrong.synthesize(request, { lane: 'interactive' })).rejects.toThrow('has not been found');
    await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });

    const writable = await script('true');
    await chmod(writable, 0o777);
    const shared = await cliAdapter({ ...spec, program: 'unused' }, { program: writable }).probe();
    expect(shared).toMatchObject({ available: false, reason: expect.stringContaining('can be changed by other users (mode 0777)') });
    const relative = await cliAdapter({ ...spec, program: 'unused' }, { program: 'engine.sh' }).probe();
    expect(relative).toEqual({ available: false, reason: '"engine.sh" is not an absolute path.' });
  });

  it('runs at most `concurrency` batch processes, and an interactive request at once beside them', async () => {
    const dir = await tempDir();
    const log = path.join(dir, 'log');
    await writeFile(path.join(dir, 'fixed.wav'), encodeWav({ sampleRate: 16000, samples: Int16Array.from([0, 1000, -1000, 0]) }));
    // Logs its start and end (the text names the request), takes a while, writes the WAV.
    const engine = await script(
      `echo "start $(cat "$1")" >> "${log}"; sleep 0.3; echo "end $(cat "$1")" >> "${log}"; cp "${dir}/fixed.wav" "$2"`,
    );
    const adapter = cliAdapter({ ...spec, program: engine, command: (_r, f) => ({ args: [f.textFile, f.wavFile] }) }, { concurrency: 2 });
    expect(await adapter.probe()).toMatchObject({ available: true });
    const run = (text: string, lane: 'interactive' | 'batch') => adapter.synthesize({ ...request, text }, { lane });
    const batch = ['b1', 'b2', 'b3', 'b4'].map((name) => run(name, 'batch'));
    // after the batch requests, yet it starts beside b1 and b2, in the slot kept for interactive ones
    const interactive = run('i1', 'interactive');
    await Promise.all([...batch, interactive]);
    const lines = (await readFile(log, 'utf8')).trim().split('\n');
    const starts = lines.filter((l) => l.startsWith('start')).map((l) => l.slice(6));
    expect(starts.slice(0, 3).sort()).toEqual(['b1', 'b2', 'i1']);
    expect(starts.slice(3).sort()).toEqual(['b3', 'b4']);
    let batchRunning = 0;
    let most = 0;
    for (const line of lines.filter((l) => !l.endsWith('i1'))) {
      batchRunning += line.startsWith('start') ? 1 : -1;
      most = Math.max(most, batchRunning);
    }
    expect(most).toBe(2);
  });

  it('turns a hung synthesis into engine_timeout', async () => {
    const hung = await script('sleep 30');
    const adapter = cliAdapter({ ...spec, program: hung }, { timeoutMs: 200 });
    expect(await adapter.probe()).toMatchObject({ available: true, defaultVoice: 'fake:v' });
    await expect(adapter.synthesize(request, { lane: 'interactive' })).rejects.toMatchObject({ code: 'engine_timeout' });
  });
});

describe('knownEngines', () => {
  it('uses a configured program for a system engine', async () => {
    const { knownEngines } = await import('./installed');
    // It answers --version as flite does, then lists one voice.
    const fake = path.join(await tempDir(), 'my-flite');
    await writeFile(fake, '#!/bin/sh\n[ "$1" = --version ] && echo "  version: flite-2.2-current" || echo "Voices available: kal16"\n');
    await chmod(fake, 0o755);
    const pool = { workerFile: '/nonexistent' } as Parameters<typeof knownEngines>[0];
    const flite = knownEngines(pool, { modelDirs: [], executables: { 'flite-system': fake } }).find((e) => e.id === 'flite-system')!;
    expect(await flite.probe()).toMatchObject({ available: true, defaultVoice: 'flite-system:kal16' });
  });
});
