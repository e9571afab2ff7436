import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startJobHarness, type JobHarness } from '../testing/job-harness';
import { RESERVE_FILE } from './disk-budget';
import { JobFinisher } from './finisher';

// JobFinisher on its own (joining chunks is assembler.test.ts's): chunk files written by the test, jobs in an in-memory SQLite, no engine.

let h: JobHarness;
let finisher: JobFinisher;
beforeEach(async () => {
  h = await startJobHarness();
  h.runner.pause(); // the test plays the chunk worker
  finisher = new JobFinisher({ store: h.store, disk: h.disk });
});
afterEach(() => h.close());

const RATE = 1000;

/** A running job whose chunks are saved out of order, each a constant level: chunk i at level 100 * (i + 1). */
async function jobWithSavedChunks(lengths: number[]): Promise<string> {
  const job = await h.enqueue(lengths.map((_, i) => `Paragraph ${i}.`).join('\n\n'));
  h.store.transition(job.id, 'running');
  for (const idx of [...lengths.keys()].reverse()) {
    const samples = new Int16Array(lengths[idx]!).fill(100 * (idx + 1));
    await h.runner.files.writeChunk(job.id, idx, samples);
    h.store.chunkDone(job.id, idx, { samples: samples.length, sampleRate: RATE, sentences: null });
  }
  return job.id;
}

describe('JobFinisher', () => {
  it('records a job done with the size and duration of its written audio', async () => {
    const id = await jobWithSavedChunks([3, 2]);
    const done = finisher.recordDone(id, { bytes: 1234, dataBytes: 4 * RATE }); // two seconds of 16-bit samples;
    expect(done).toMatchObject({ state: 'done', audio_bytes: 1234, duration_s: 2 });
    expect(done.finished_at).toBeTruthy();
  });

  it('records a failure with its code and message', async () => {
    const id = await jobWithSavedChunks([1]);
    const row = finisher.recordFailure(id, { code: 'engine_error', message: 'The engine failed: x' });
    expect(row).toMatchObject({ state: 'failed', error_code: 'engine_error', error_message: 'The engine failed: x' });
  });

  it('gives up the disk reserve when a job fails for a full disk, so that SQLite can record it', async () => {
    const id = await jobWithSavedChunks([1]);
    const reserve = path.join(h.dataDir, RESERVE_FILE);
    expect(existsSync(reserve)).toBe(true); // made when the job was admitted
    expect(finisher.recordFailure(id, { code: 'disk_full', message: 'full' })?.state).toBe('failed');
    expect(existsSync(reserve)).toBe(false);
  });

  it('answers null when the failure cannot be recorded (the job then resumes at the next start)', async () => {
    const id = await jobWithSavedChunks([1]);
    finisher.recordFailure(id, { code: 'cancelled', message: 'The job was cancelled.' });
    const errors: unknown[] = [];
    const original = console.error;
    console.error = (...args: unknown[]) => errors.push(args);
    try {
      // failed → failed is no transition: the store refuses it, as it would a full disk
      expect(finisher.recordFailure(id, { code: 'engine_error', message: 'late' })).toBeNull();
    } finally {
      console.error = original;
    }
    expect(errors).toHaveLength(1);
    expect(h.store.get(id)!.error_code).toBe('cancelled');
  });
});
