import Database from 'better-sqlite3';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { expectSpeech } from '../../testing/audio';
import { waitForJob } from '../../testing/gateway';
import { exited, type WorkerHostProcess } from '../../testing/process';
import { licenceText } from '../../testing/prose';
import { redisMissing, useRedisQueue } from '../../testing/redis';

const skipReason = redisMissing();
if (skipReason) console.log(`Skipped: ${skipReason}.`);

const TEXT = licenceText(100_000);
const SAMPLE_RATE = 22050; // the default voice, eSpeak NG's en-us

const queue = useRedisQueue('orator-scale-');

interface ChunkState {
  idx: number;
  done: number;
  attempts: number;
  samples: number | null;
  pause_ms: number;
}

function chunkStates(dataDir: string, jobId: string): ChunkState[] {
  const db = new Database(path.join(dataDir, 'orator.db'), { readonly: true });
  const rows = db.prepare('SELECT idx, done, attempts, samples, pause_ms FROM chunks WHERE job_id = ? ORDER BY idx').all(jobId);
  db.close();
  return rows as ChunkState[];
}

/** The chunks a worker host started, in order, from its log: one line per start. */
function startsOf(host: WorkerHostProcess, jobId: string): number[] {
  const pattern = new RegExp(`chunk (\\d+) of job ${jobId} `, 'g');
  return [...host.output().matchAll(pattern)].map((match) => Number(match[1]));
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe.skipIf(skipReason)('worker hosts on a Redis queue', () => {
  it('finishes a 100,000-character job when a host is killed mid-chunk, redoing only the chunk it held', { timeout: 900_000 }, async () => {
    const { dataDir, gateway } = await queue.start();
    const hostArgs = ['--concurrency', '1', '--stalled-after', '3'];
    const [doomed, survivor] = await Promise.all([queue.host(gateway, 'doomed', hostArgs), queue.host(gateway, 'survivor', hostArgs)]);

    const engines = (await (await gateway.api('/api/v1/tts/engines')).json()) as { engines: { id: string; hosts?: string[] }[] };
    expect(engines.engines.find((e) => e.id === 'espeak-ng')?.hosts?.sort()).toEqual(['doomed', 'survivor']);

    const response = await gateway.api('/api/v1/tts/synthesize', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: TEXT, mode: 'job' }),
    });
    expect(response.status).toBe(202);
    const { job_id: jobId } = (await response.json()) as { job_id: string };

    // kill the doomed host right after it started a chunk, once both hosts have saved a few
    await until(() => chunkStates(dataDir, jobId).filter((c) => c.done).length >= 10, 600_000, 'ten chunks saved');
    const startedBefore = startsOf(doomed, jobId).length;
    await until(() => startsOf(doomed, jobId).length > startedBefore, 60_000, 'the doomed host to start a chunk');
    doomed.child.kill('SIGKILL');
    await exited(doomed.child);
    const inFlight = startsOf(doomed, jobId).at(-1)!;
    const savedAtKill = chunkStates(dataDir, jobId).filter((c) => c.done);
    expect(savedAtKill.map((c) => c.idx)).not.toContain(inFlight);

    const job = await waitForJob(gateway, jobId, 800_000);
    expect(job.status).toBe('done');

    const chunks = chunkStates(dataDir, jobId);
    expect(chunks.length).toBeGreaterThan(150);
    expect(chunks.every((c) => c.done === 1)).toBe(true);
    // the WAV is exactly every chunk's samples and the pauses between them
    const wav = Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${jobId}/audio`)).arrayBuffer());
    const seconds = expectSpeech(wav, { sampleRate: SAMPLE_RATE });
    const pauses = chunks.slice(0, -1).reduce((sum, c) => sum + Math.round((c.pause_ms / 1000) * SAMPLE_RATE), 0);
    expect(Math.round(seconds * SAMPLE_RATE)).toBe(chunks.reduce((sum, c) => sum + c.samples!, 0) + pauses);

    // syntheses counted from both hosts' logs: each chunk once, but the one the dead host held
    const starts = [...startsOf(doomed, jobId), ...startsOf(survivor, jobId)];
    const count = new Map<number, number>();
    for (const idx of starts) count.set(idx, (count.get(idx) ?? 0) + 1);
    expect([...count.keys()].sort((a, b) => a - b)).toEqual(chunks.map((c) => c.idx));
    expect([...count].filter(([, n]) => n > 1)).toEqual([[inFlight, 2]]);
    expect(startsOf(survivor, jobId)).toContain(inFlight);
    // the gateway recorded the same from BullMQ's count of starts
    expect(chunks.filter((c) => c.attempts > 1).map((c) => [c.idx, c.attempts])).toEqual([[inFlight, 2]]);
    for (const chunk of savedAtKill) expect(chunks[chunk.idx]!.attempts).toBe(1);

    const leftovers = await readdir(path.join(dataDir, 'chunks')).catch(() => []);
    expect(leftovers).toEqual([]);
  });
});
