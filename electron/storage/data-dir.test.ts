import { existsSync, lstatSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readdir, rm, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { useTestGateways, waitForJob } from '../testing/gateway';
import { makeTreePrivate, prepareDataDir } from './data-dir';

let root: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'orator-private-'));
});
afterEach(() => rm(root, { recursive: true, force: true }));
const gateways = useTestGateways();

/** Every file and folder under `dir` (symbolic links aside) with its permission bits. */
function modes(dir: string): Map<string, number> {
  const found = new Map<string, number>();
  for (const name of readdirSync(dir, { recursive: true }) as string[]) {
    const stats = lstatSync(path.join(dir, name));
    if (!stats.isSymbolicLink()) found.set(name, stats.mode & 0o777);
  }
  return found;
}

describe('the data folder', () => {
  it('after a real job holds only private files (0600) and folders (0700), chunk files and logs included', async () => {
    const dataDir = path.join(root, 'data');
    const gateway = await gateways.start({ dataDir });
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    const text = 'A sentence of a long chapter, said again and again. '.repeat(100);
    // an MP3 job keeps its chunk files while it runs (a WAV job's chunks that arrive in turn have none)
    const queued = await gateway.post('/api/v1/tts/synthesize', { text, format: 'mp3' });
    const { job_id } = (await queued.json()) as { job_id: string };
    // chunk files exist only while the job runs: look at them then
    const chunkModes = new Set<number>();
    const chunkDir = path.join(dataDir, 'chunks', job_id);
    while ((await (await gateway.api(`/api/v1/tts/jobs/${job_id}`)).json()).status === 'running' && chunkModes.size === 0) {
      for (const name of await readdir(chunkDir).catch(() => [])) {
        const mode = await stat(path.join(chunkDir, name)).then(
          (s) => s.mode & 0o777,
          () => null,
        );
        if (mode !== null) chunkModes.add(mode);
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect([...chunkModes]).toEqual([0o600]);
    expect((await waitForJob(gateway, job_id)).status).toBe('done');
    await gateway.api(`/api/v1/tts/jobs/${job_id}/audio`);

    const found = modes(dataDir);
    for (const name of [
      'orator.db',
      'orator.db-wal',
      'orator.db-shm',
      'api-key',
      'instance-id',
      'gateway.lock',
      `audio/${job_id}.mp3`,
      'logs/requests.jsonl',
    ]) {
      expect([name, found.get(name)]).toEqual([name, 0o600]);
    }
    for (const [name, mode] of found) {
      const isDir = lstatSync(path.join(dataDir, name)).isDirectory();
      expect([name, mode]).toEqual([name, isDir ? 0o700 : 0o600]);
    }
  });

  it('is tightened at start when it and its files were left open to others', async () => {
    const dataDir = path.join(root, 'loose');
    const first = await gateways.start({ dataDir });
    await first.post('/api/v1/tts/synthesize', { text: 'Make a request log.' });
    await gateways.close(first);
    const outside = path.join(root, 'shared-model.onnx');
    await writeFile(outside, 'weights');
    await chmod(outside, 0o644);
    await symlink(outside, path.join(dataDir, 'linked-model.onnx'));
    await mkdir(path.join(dataDir, 'by-hand'), { mode: 0o755 });
    await writeFile(path.join(dataDir, 'by-hand', 'notes.txt'), 'x', { mode: 0o666 });
    // what an older version, a copy or a restore from backup leaves: the usual umask's modes
    for (const [name] of modes(dataDir)) {
      const file = path.join(dataDir, name);
      await chmod(file, lstatSync(file).isDirectory() ? 0o755 : 0o644);
    }
    await chmod(dataDir, 0o755);

    await gateways.start({ dataDir });
    expect((await stat(dataDir)).mode & 0o777).toBe(0o700);
    for (const [name, mode] of modes(dataDir)) {
      expect([name, mode]).toEqual([name, lstatSync(path.join(dataDir, name)).isDirectory() ? 0o700 : 0o600]);
    }
    expect(modes(dataDir).get('by-hand/notes.txt')).toBe(0o600);
    // a link is neither followed nor changed
    expect((await stat(outside)).mode & 0o777).toBe(0o644);
  });

  it('tightens 10,000 files quickly', async () => {
    for (let d = 0; d < 100; d++) {
      const dir = path.join(root, 'chunks', `job-${d}`);
      await mkdir(dir, { recursive: true, mode: 0o755 });
      await Promise.all(Array.from({ length: 100 }, (_, f) => writeFile(path.join(dir, `${f}.pcm`), '', { mode: 0o644 })));
    }
    const started = performance.now();
    const report = makeTreePrivate(root);
    const ms = performance.now() - started;
    console.log(`tightened ${report.tightened} of ${report.entries} entries in ${ms.toFixed(0)} ms`);
    expect(report).toEqual({ entries: 10_101, tightened: 10_101, failed: [] });
    const again = performance.now();
    expect(makeTreePrivate(root).tightened).toBe(0);
    console.log(`the same walk with nothing to change: ${(performance.now() - again).toFixed(0)} ms`);
    expect(ms).toBeLessThan(5000);
  });

  it('refuses, in a sentence, a named folder whose parent is missing, and a file in its place', async () => {
    const missing = path.join(root, 'not-mounted', 'orator');
    await expect(prepareDataDir(missing, { createParents: false })).rejects.toThrow(
      `The folder ${path.dirname(missing)}, which is to hold the data folder ${missing}, does not exist. Create it, or choose another --data-dir.`,
    );
    expect(existsSync(path.dirname(missing))).toBe(false);
    // the platform's default location may lack its parents on a new machine
    await prepareDataDir(missing, { createParents: true });
    expect((await stat(missing)).mode & 0o777).toBe(0o700);
    const file = path.join(root, 'a-file');
    await writeFile(file, '');
    await expect(prepareDataDir(file, { createParents: false })).rejects.toThrow(`The data folder ${file} is not a folder.`);
  });
});
