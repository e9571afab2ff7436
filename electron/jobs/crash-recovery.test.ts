import Database from 'better-sqlite3';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSpeech } from '../testing/audio';
import { decodeIndependently } from '../testing/decoders';
import { prose } from '../testing/prose';
import { waitForJob } from '../testing/gateway';
import { until } from '../testing/until';
import { exited, spawnGateway, type GatewayProcess } from '../testing/process';

let dataDir: string;
const children: GatewayProcess[] = [];
afterAll(async () => {
  for (const { child } of children) child.kill('SIGKILL');
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

interface ChunkState {
  job_id: string;
  idx: number;
  done: number;
  attempts: number;
  samples: number | null;
  pause_ms: number;
}

const chunkStates = () => {
  const db = new Database(path.join(dataDir, 'orator.db'), { readonly: true });
  const rows = db.prepare('SELECT job_id, idx, done, attempts, samples, pause_ms FROM chunks ORDER BY job_id, idx').all() as ChunkState[];
  db.close();
  return rows;
};

const joinedChunks = (jobId: string) => {
  const db = new Database(path.join(dataDir, 'orator.db'), { readonly: true });
  const { joined_chunks } = db.prepare('SELECT joined_chunks FROM jobs WHERE id = ?').get(jobId) as { joined_chunks: number };
  db.close();
  return joined_chunks;
};

async function allFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => path.join(e.parentPath, e.name));
}

describe('crash recovery', () => {
  it('finishes every job after a SIGKILL, never synthesizing a finished chunk twice', async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-crash-'));
    const first = await spawnGateway(['--data-dir', dataDir, '--workers', '2']);
    children.push(first);
    const ids: string[] = [];
    // the middle one encoded as it goes: its MP3 starts again from its first chunk after the crash;
    // about 20 chunks each, so that the kill after 20 chunks leaves most of them to do
    const formats = ['wav', 'mp3', 'wav'] as const;
    for (let i = 0; i < 3; i++) {
      const response = await first.api('/api/v1/tts/synthesize', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: prose(10_000 + i * 1000), mode: 'job', format: formats[i] }),
      });
      ids.push(((await response.json()) as { job_id: string }).job_id);
    }
    // kill mid-way: some chunks done, most not
    await until(async () => (chunkStates().filter((c) => c.done).length >= 20 ? true : undefined), 120_000, 'twenty chunks done');
    first.child.kill('SIGKILL');
    await exited(first.child);

    const beforeRestart = chunkStates();
    const finishedBefore = beforeRestart.filter((c) => c.done);
    expect(finishedBefore.length).toBeGreaterThan(0);
    expect(finishedBefore.length).toBeLessThan(beforeRestart.length);
    // the first WAV job's first chunks went straight into its WAV, without chunk files: it resumes after them
    const joined = joinedChunks(ids[0]!);
    expect(joined).toBeGreaterThan(0);
    const chunkFiles = await readdir(path.join(dataDir, 'chunks', ids[0]!)).catch(() => []);
    expect(chunkFiles.filter((name) => Number.parseInt(name, 10) < joined)).toEqual([]);

    const second = await spawnGateway(['--data-dir', dataDir, '--workers', '2']);
    children.push(second);
    for (const [i, id] of ids.entries()) {
      expect((await waitForJob(second, id)).status).toBe('done');
      const file = Buffer.from(await (await second.api(`/api/v1/tts/jobs/${id}/audio`)).arrayBuffer());
      const chunks = chunkStates().filter((c) => c.job_id === id);
      const expected = chunks.reduce(
        (sum, c, i) => sum + c.samples! + (i < chunks.length - 1 ? Math.round((c.pause_ms / 1000) * 22050) : 0),
        0,
      );
      if (formats[i] === 'wav') {
        expect(Math.round(expectSpeech(file, { sampleRate: 22050 }) * 22050)).toBe(expected);
      } else {
        // every chunk once, in order: as long as its chunks and pauses, plus LAME's delay and padding
        const decoded = await decodeIndependently('mp3', file);
        expect(decoded.seconds - expected / 22050).toBeGreaterThanOrEqual(0);
        expect(decoded.seconds - expected / 22050).toBeLessThan(0.1);
      }
    }

    const after = chunkStates();
    const attemptsOf = new Map(after.map((c) => [`${c.job_id}/${c.idx}`, c.attempts]));
    // a chunk finished before the crash is never synthesized again
    for (const chunk of finishedBefore) expect(attemptsOf.get(`${chunk.job_id}/${chunk.idx}`)).toBe(chunk.attempts);
    // only the chunks in flight at the kill were started twice: per worker, one being synthesized
    // and at most one whose audio was back but not yet saved
    expect(after.filter((c) => c.attempts > 1).length).toBeLessThanOrEqual(4);
    expect(after.every((c) => c.done === 1)).toBe(true);

    const files = await allFiles(dataDir);
    expect(files.filter((f) => f.endsWith('.partial'))).toEqual([]);
    expect(files.filter((f) => f.includes(`${path.sep}chunks${path.sep}`))).toEqual([]);
    second.child.kill('SIGTERM');
    await exited(second.child);
    // 33,000 characters over two runs, one job encoded to MP3 twice (before and after the kill)
  }, 180_000);
});
