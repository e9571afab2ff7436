import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseWav, WAV_HEADER_BYTES } from '../audio/wav';
import { startJobHarness, type JobHarness } from '../testing/job-harness';
import { RESERVE_FILE } from './disk-budget';
import { JobFinisher } from './finisher';

// JobFinisher on its own: chunk files written by the test, jobs in an in-memory SQLite, no engine.

let h: JobHarness;
let finisher: JobFinisher;
beforeEach(async () => {
  h = await startJobHarness();
  h.runner.pause(); // the test plays the chunk worker
  finisher = new JobFinisher({ store: h.store, files: h.runner.files, disk: h.disk });
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
  it('joins the chunks in index order with their pauses (none after the last) and records the job done', async () => {
    const id = await jobWithSavedChunks([3, 2, 4]);
    const done = await finisher.finish(id);
    const wav = await readFile(h.runner.files.audioFile(id));
    const info = parseWav(wav);
    expect(info.sampleRate).toBe(RATE);
    const samples = [...new Int16Array(wav.buffer, wav.byteOffset + WAV_HEADER_BYTES, info.dataBytes / 2)];
    const pause = new Array<number>(0.7 * RATE).fill(0); // paragraphs: 700 ms
    expect(samples).toEqual([...[100, 100, 100], ...pause, ...[200, 200], ...pause, ...[300, 300, 300, 300]]);
    expect(done).toMatchObject({ state: 'done', audio_bytes: wav.length, duration_s: samples.length / RATE });
    expect(done.finished_at).toBeTruthy();
    const peaks = JSON.parse(await readFile(h.runner.files.peaksFile(id), 'utf8')) as { duration_s: number; sample_rate: number };
    expect(peaks).toMatchObject({ duration_s: samples.length / RATE, sample_rate: RATE });
    expect(existsSync(h.runner.files.audioFile(id) + '.partial')).toBe(false);
  });

  it('fails to finish, recording nothing and leaving no WAV, when a chunk file is missing', async () => {
    const other = await jobWithSavedChunks([3, 2]);
    await h.runner.files.removeChunks(other);
    await expect(finisher.finish(other)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(h.store.get(other)!.state).toBe('running');
    expect(existsSync(h.runner.files.audioFile(other))).toBe(false);
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
