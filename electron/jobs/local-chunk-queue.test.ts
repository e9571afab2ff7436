import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Pcm } from '../audio/pcm';
import { prepareDatabase } from '../storage/database';
import type { ChunkHandler } from './chunk-queue';
import { LocalChunkQueue } from './local-chunk-queue';
import type { ChunkRow, JobRow } from './rows';
import { JobStore } from './store';

// The embedded chunk queue on its own: jobs in an in-memory SQLite, and a synthesizer whose every
// call the test settles by hand (a double of the engines), so that the order of events is the test's.

interface Call {
  jobId: string;
  /** The chunks' indexes, joined by "+" for a unit of several. */
  idx: string;
  signal: AbortSignal;
  speak(): void;
  fail(error: Error): void;
}

let db: Database.Database;
let store: JobStore;
let calls: Call[];
let log: string[];
let saving: Promise<void> | null;

const PCM: Pcm = { sampleRate: 8000, samples: new Int16Array(8) };

const handler: ChunkHandler = {
  starting: (jobId) => log.push(`starting ${jobId}`),
  completed: async (jobId, chunk) => {
    log.push(`completed ${jobId}/${chunk.idx}`);
    await saving;
  },
  failed: (jobId, error) => log.push(`failed ${jobId}: ${(error as Error).message}`),
};

function synthesize(jobId: string, chunks: ChunkRow[], signal: AbortSignal): Promise<Pcm[]> {
  return new Promise((resolve, reject) => {
    const idx = chunks.map((c) => c.idx).join('+');
    calls.push({ jobId, idx, signal, speak: () => resolve(chunks.map(() => PCM)), fail: reject });
    signal.addEventListener('abort', () => reject(new Error('aborted')), { once: true });
  });
}

function addJob(id: string, chunks: number, series?: { id: string; idx: number }): JobRow {
  const texts = Array.from({ length: chunks }, (_, i) => ({ text: `${id} ${i}`, pauseMs: 0 }));
  const voice = { engine: 'fake', voice: 'fake:plain', local_voice: 'plain', rate: 1, pitch: 1, volume: 1 };
  const output = { format: 'wav', bitrate_kbps: null, keep_wav: 0 } as const;
  const place = series ? { series: series.id, series_idx: series.idx } : {};
  store.insert({ id, title: id, characters: 1, created_at: new Date().toISOString(), ...voice, ...output, ...place }, texts);
  return store.get(id)!;
}

/** The chunks handed to the synthesizer so far, in order. */
const dispatched = () => calls.map((c) => `${c.jobId}/${c.idx}`);
const tick = () => new Promise((resolve) => setImmediate(resolve));

beforeEach(() => {
  db = prepareDatabase(new Database(':memory:'));
  store = new JobStore(db);
  calls = [];
  log = [];
  saving = null;
});
afterEach(() => db.close());

describe('LocalChunkQueue', () => {
  it('takes a series’ jobs in their order, as one lane among the other jobs', async () => {
    const queue = new LocalChunkQueue(store, 1, synthesize, handler);
    // added out of order, as a restart takes them up
    queue.add(addJob('ch2', 2, { id: 'book', idx: 1 }));
    queue.add(addJob('ch1', 2, { id: 'book', idx: 0 }));
    queue.add(addJob('x', 2));
    queue.start();
    for (let i = 0; i < 6; i++) {
      calls[i]!.speak();
      await tick();
    }
    expect(dispatched()).toEqual(['ch1/0', 'x/0', 'ch1/1', 'x/1', 'ch2/0', 'ch2/1']);
  });

  it('runs nothing before start, then at most `concurrency` chunks, taking jobs in turn', async () => {
    const queue = new LocalChunkQueue(store, 2, synthesize, handler);
    queue.add(addJob('a', 3));
    queue.add(addJob('b', 2));
    expect(calls).toHaveLength(0);
    queue.start();
    expect(dispatched()).toEqual(['a/0', 'b/0']);
    calls[0]!.speak();
    await tick();
    expect(dispatched()).toEqual(['a/0', 'b/0', 'a/1']);
    calls[1]!.speak();
    await tick();
    expect(dispatched()).toEqual(['a/0', 'b/0', 'a/1', 'b/1']);
    for (const call of calls.slice(2)) call.speak();
    await vi.waitFor(() => expect(calls).toHaveLength(5));
    calls[4]!.speak();
    await vi.waitFor(() => expect(log.filter((l) => l.startsWith('completed'))).toHaveLength(5));
    expect(log.filter((l) => l.startsWith('completed a'))).toEqual(['completed a/0', 'completed a/1', 'completed a/2']);
  });

  it('frees a slot when the audio is back, before it is saved', async () => {
    const queue = new LocalChunkQueue(store, 1, synthesize, handler);
    let saved!: () => void;
    saving = new Promise((resolve) => (saved = resolve));
    queue.add(addJob('a', 2));
    queue.start();
    calls[0]!.speak();
    await vi.waitFor(() => expect(calls).toHaveLength(2));
    expect(log).toContain('completed a/0');
    saved();
    await queue.stop(0);
  });

  it('holds back new chunks while paused; chunks in flight finish', async () => {
    const queue = new LocalChunkQueue(store, 1, synthesize, handler);
    queue.add(addJob('a', 2));
    queue.start();
    queue.pause();
    expect(queue.isPaused).toBe(true);
    calls[0]!.speak();
    await vi.waitFor(() => expect(log).toContain('completed a/0'));
    await tick();
    expect(calls).toHaveLength(1);
    queue.resume();
    expect(dispatched()).toEqual(['a/0', 'a/1']);
  });

  it('removes a job: its chunks in flight are aborted and waited for, reported neither done nor failed', async () => {
    const queue = new LocalChunkQueue(store, 2, synthesize, handler);
    queue.add(addJob('a', 5));
    queue.start();
    await queue.remove('a');
    expect(calls.every((c) => c.signal.aborted)).toBe(true);
    expect(calls).toHaveLength(2);
    await tick();
    expect(calls).toHaveLength(2);
    expect(log).toEqual(['starting a', 'starting a']);
  });

  it('reports a failed chunk to the handler and goes on with the next', async () => {
    const queue = new LocalChunkQueue(store, 1, synthesize, handler);
    queue.add(addJob('a', 1));
    queue.add(addJob('b', 1));
    queue.start();
    calls[0]!.fail(new Error('no voice'));
    await vi.waitFor(() => expect(log).toContain('failed a: no voice'));
    expect(dispatched()).toEqual(['a/0', 'b/0']);
    await queue.stop(0);
  });

  it("hands out a unit of consecutive chunks up to the job's unit size, completed one by one in order", async () => {
    // each chunk's text is 3 characters ("a 0"): a unit of 7 characters holds two
    const queue = new LocalChunkQueue(store, 2, synthesize, handler, (jobId) => (jobId === 'a' ? 7 : 0));
    queue.add(addJob('a', 5));
    queue.add(addJob('b', 2));
    queue.start();
    expect(dispatched()).toEqual(['a/0+1', 'b/0']);
    calls[0]!.speak();
    await vi.waitFor(() => expect(dispatched()).toEqual(['a/0+1', 'b/0', 'a/2+3']));
    expect(log.filter((l) => l.startsWith('completed'))).toEqual(['completed a/0', 'completed a/1']);
    calls[1]!.speak();
    await vi.waitFor(() => expect(dispatched()).toEqual(['a/0+1', 'b/0', 'a/2+3', 'b/1']));
    calls[2]!.speak();
    await vi.waitFor(() => expect(dispatched()).toEqual(['a/0+1', 'b/0', 'a/2+3', 'b/1', 'a/4']));
    calls[3]!.speak();
    calls[4]!.speak();
    await vi.waitFor(() => expect(log.filter((l) => l.startsWith('completed a'))).toHaveLength(5));
    expect(log.filter((l) => l.startsWith('completed a'))).toEqual([0, 1, 2, 3, 4].map((i) => `completed a/${i}`));
  });

  it('stops: chunks in flight get the grace period to finish, then are aborted; nothing new starts', async () => {
    const queue = new LocalChunkQueue(store, 2, synthesize, handler);
    queue.add(addJob('a', 4));
    queue.start();
    const stopping = queue.stop(50);
    calls[0]!.speak(); // within the grace period: handed back
    await stopping;
    expect(log).toContain('completed a/0');
    expect(calls[1]!.signal.aborted).toBe(true);
    expect(log).not.toContain('completed a/1');
    expect(calls).toHaveLength(2);
  });
});
