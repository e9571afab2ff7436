import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../contract';
import { EngineRegistry } from '../engines/registry';
import { levelOf } from '../testing/fake-engine';
import { startJobHarness, type JobHarness } from '../testing/job-harness';
import { CHUNK_RETRY, isRetryable, retryDelayMs } from './chunk-retry';
import { synthesizeChunk } from './chunk-synthesis';

// synthesizeChunk on its own: a job stored in an in-memory SQLite, the fake engine, no queue.

let h: JobHarness;
beforeEach(async () => {
  h = await startJobHarness();
  h.runner.pause(); // the test synthesizes the chunks itself
});
afterEach(() => h.close());

async function firstChunk(prosody = { rate: 1, pitch: 1, volume: 1 }) {
  const job = await h.enqueue('Hello there.', prosody);
  return { job, chunk: h.store.chunks(job.id)[0]! };
}

describe('synthesizeChunk', () => {
  it("speaks the chunk with the job's recorded voice and prosody, in the batch lane", async () => {
    const { job, chunk } = await firstChunk({ rate: 1.5, pitch: 0.75, volume: 1 });
    const pcm = await synthesizeChunk(h, job.id, chunk, new AbortController().signal);
    expect(pcm.samples[0]).toBe(levelOf('Hello there.'));
    expect(h.engine.calls).toHaveLength(1);
    expect(h.engine.calls[0]!.request).toEqual({ text: 'Hello there.', voice: 'plain', rate: 1.5, pitch: 0.75, volume: 1 });
    expect(h.engine.calls[0]!.context.lane).toBe('batch');
    expect(h.store.chunks(job.id)[0]!.attempts).toBe(1);
  });

  it('applies the volume as gain when the engine cannot (the output policy)', async () => {
    const { job, chunk } = await firstChunk({ rate: 1, pitch: 1, volume: 0.5 });
    const pcm = await synthesizeChunk(h, job.id, chunk, new AbortController().signal);
    expect(pcm.samples[0]).toBe(Math.round(levelOf('Hello there.') * 0.5));
  });

  it('tries a failing chunk once more, counting both attempts', async () => {
    h.engine.behaviour = (_request, attempt) => (attempt === 1 ? new Error('transient') : 'speak');
    const { job, chunk } = await firstChunk();
    await synthesizeChunk(h, job.id, chunk, new AbortController().signal);
    expect(h.engine.calls).toHaveLength(2);
    expect(h.store.chunks(job.id)[0]!.attempts).toBe(2);
  });

  it('gives up after the last try with engine_error; an ApiError of the engine stays as it is', async () => {
    const { job, chunk } = await firstChunk();
    h.engine.behaviour = () => new Error('broken');
    await expect(synthesizeChunk(h, job.id, chunk, new AbortController().signal)).rejects.toMatchObject({
      code: 'engine_error',
      message: 'The engine failed: broken',
    });
    expect(h.engine.calls).toHaveLength(CHUNK_RETRY.attempts);
    h.engine.behaviour = () => new ApiError('engine_timeout', 'too slow');
    await expect(synthesizeChunk(h, job.id, chunk, new AbortController().signal)).rejects.toMatchObject({ code: 'engine_timeout' });
    expect(h.engine.calls).toHaveLength(2 * CHUNK_RETRY.attempts);
  });

  it('does not try again a failure no try can change', async () => {
    const { job, chunk } = await firstChunk();
    h.engine.behaviour = () => new ApiError('unknown_voice', 'no such voice');
    await expect(synthesizeChunk(h, job.id, chunk, new AbortController().signal)).rejects.toMatchObject({ code: 'unknown_voice' });
    expect(h.engine.calls).toHaveLength(1);
  });

  it('stops during the pause between tries when the job is aborted, with the failure', async () => {
    const { job, chunk } = await firstChunk();
    const abort = new AbortController();
    h.engine.behaviour = () => {
      setTimeout(() => abort.abort(), 20); // after the engine answers, well within the first pause
      return new Error('broken');
    };
    await expect(synthesizeChunk(h, job.id, chunk, abort.signal)).rejects.toMatchObject({ code: 'engine_error' });
    expect(h.engine.calls).toHaveLength(1);
  });

  it('does not try again once the job is aborted', async () => {
    const { job, chunk } = await firstChunk();
    const abort = new AbortController();
    h.engine.behaviour = () => {
      abort.abort();
      return new Error('stopped');
    };
    await expect(synthesizeChunk(h, job.id, chunk, abort.signal)).rejects.toThrow();
    expect(h.engine.calls).toHaveLength(1);
  });

  it("fails with engine_unavailable when the job's engine is gone", async () => {
    const { job, chunk } = await firstChunk();
    const withoutIt = new EngineRegistry([]);
    await expect(
      synthesizeChunk({ registry: withoutIt, store: h.store }, job.id, chunk, new AbortController().signal),
    ).rejects.toMatchObject({
      code: 'engine_unavailable',
      message: expect.stringContaining('The engine of this job (fake) is not available any more') as string,
    });
    expect(h.engine.calls).toHaveLength(0);
  });
});

describe('the chunk-retry policy', () => {
  it('retries engine failures, not refusals, after pauses that double', () => {
    expect(isRetryable(new Error('crashed'))).toBe(true);
    expect(isRetryable(new ApiError('engine_error', 'x'))).toBe(true);
    expect(isRetryable(new ApiError('engine_timeout', 'x'))).toBe(true);
    expect(isRetryable(new ApiError('engine_unavailable', 'x'))).toBe(false);
    expect(isRetryable(new ApiError('unknown_voice', 'x'))).toBe(false);
    expect([1, 2, 3].map(retryDelayMs)).toEqual([1, 2, 4].map((n) => n * CHUNK_RETRY.firstDelayMs));
  });
});
