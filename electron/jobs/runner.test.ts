import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseWav } from '../audio/wav';
import { FAKE_SAMPLE_RATE, levelOf, SAMPLES_PER_CHAR } from '../testing/fake-engine';
import { PROSODY, startJobHarness, WAV_OUTPUT, type JobHarness } from '../testing/job-harness';
import { PARAGRAPH_PAUSE_MS } from './chunker';
import { JobRunner } from './runner';
import { CHUNK_RETRY } from './chunk-retry';

// Unit tests of the runner's parts working together, on a fake engine and an in-memory SQLite (no HTTP).

let h: JobHarness;
beforeEach(async () => {
  h = await startJobHarness();
});
afterEach(() => h.close());

const PARAGRAPHS = ['First paragraph.', 'Second one.', 'Third and last.'];

/** The samples of an assembled WAV, read back as runs of one level. */
function runs(samples: Int16Array): { level: number; length: number }[] {
  const out: { level: number; length: number }[] = [];
  for (const sample of samples) {
    const last = out[out.length - 1];
    if (last?.level === sample) last.length++;
    else out.push({ level: sample, length: 1 });
  }
  return out;
}

describe('JobRunner with a fake engine', () => {
  it('runs a job queued → running → done, with progress per chunk, and joins chunks in order with their pauses', async () => {
    const job = await h.enqueue(PARAGRAPHS.join('\n\n'));
    expect(job.state).toBe('queued');
    expect(job.chunks_total).toBe(3);
    const done = await h.ended(job.id);

    expect(done.state).toBe('done');
    expect(h.eventsOf(job.id)).toEqual(['added', 'progress', 'progress', 'progress', 'done']);
    const changes = h.changes.filter((c) => c.job.id === job.id);
    expect(changes.map((c) => c.job.chunks_done)).toEqual([0, 1, 2, 3, 3]);
    // each change has a higher revision than the one before
    const revisions = changes.map((c) => c.job.revision);
    expect(revisions.every((revision, i) => i === 0 || revision > revisions[i - 1]!)).toBe(true);
    expect(h.store.get(job.id)!.revision).toBe(revisions.at(-1));
    expect(h.engine.calls.every((call) => call.context.lane === 'batch')).toBe(true);

    const wav = await readFile(h.runner.files.audioFile(job.id));
    const info = parseWav(wav);
    expect(info.sampleRate).toBe(FAKE_SAMPLE_RATE);
    const samples = new Int16Array(wav.buffer, wav.byteOffset + info.dataOffset, info.dataBytes / 2);
    const pause = (PARAGRAPH_PAUSE_MS / 1000) * FAKE_SAMPLE_RATE;
    expect(runs(samples)).toEqual([
      { level: levelOf(PARAGRAPHS[0]!), length: PARAGRAPHS[0]!.length * SAMPLES_PER_CHAR },
      { level: 0, length: pause },
      { level: levelOf(PARAGRAPHS[1]!), length: PARAGRAPHS[1]!.length * SAMPLES_PER_CHAR },
      { level: 0, length: pause },
      { level: levelOf(PARAGRAPHS[2]!), length: PARAGRAPHS[2]!.length * SAMPLES_PER_CHAR },
    ]);
    expect(done.duration_s).toBeCloseTo(samples.length / FAKE_SAMPLE_RATE, 6);
    expect(done.audio_bytes).toBe(wav.length);
    // joined: the chunk files are gone
    await vi.waitFor(() => expect(existsSync(h.runner.files.chunkDir(job.id))).toBe(false));
  });

  it('retries a failing chunk once, and the job still finishes', async () => {
    h.engine.behaviour = (request, attempt) => (request.text === PARAGRAPHS[1] && attempt === 1 ? new Error('glitch') : 'speak');
    const job = await h.enqueue(PARAGRAPHS.join('\n\n'));
    expect((await h.ended(job.id)).state).toBe('done');
    expect(h.engine.callsOf(PARAGRAPHS[1]!)).toHaveLength(2);
    expect(h.store.chunks(job.id).map((c) => c.attempts)).toEqual([1, 2, 1]);
  });

  it('fails a job whose chunk fails every try, with the engine error, and removes its chunk files', async () => {
    h.engine.behaviour = (request) => (request.text === PARAGRAPHS[2] ? new Error('model exploded') : 'speak');
    const job = await h.enqueue(PARAGRAPHS.join('\n\n'));
    const failed = await h.ended(job.id);
    expect(failed.state).toBe('failed');
    expect(failed.error_code).toBe('engine_error');
    expect(failed.error_message).toBe('The engine failed: model exploded');
    expect(h.engine.callsOf(PARAGRAPHS[2]!)).toHaveLength(CHUNK_RETRY.attempts);
    expect(h.eventsOf(job.id).at(-1)).toBe('failed');
    await vi.waitFor(() => expect(existsSync(h.runner.files.chunkDir(job.id))).toBe(false));
    expect(existsSync(h.runner.files.audioFile(job.id))).toBe(false);
  });

  it('cancels a running job: the engine call is aborted, the job fails "cancelled", nothing is left on disk', async () => {
    h.engine.behaviour = (request) => (request.text === PARAGRAPHS[1] ? 'hang' : 'speak');
    const job = await h.enqueue(PARAGRAPHS.join('\n\n'));
    await vi.waitFor(() => expect(h.engine.callsOf(PARAGRAPHS[1]!)).toHaveLength(1));
    await vi.waitFor(() => expect(h.store.get(job.id)!.chunks_done).toBe(1));
    h.runner.cancel(job.id);

    const row = h.store.get(job.id)!;
    expect(row.state).toBe('failed');
    expect(row.error_code).toBe('cancelled');
    expect(h.engine.callsOf(PARAGRAPHS[1]!)[0]!.context.signal!.aborted).toBe(true);
    await vi.waitFor(() => expect(existsSync(h.runner.files.chunkDir(job.id))).toBe(false));
    expect(h.eventsOf(job.id)).toEqual(['added', 'progress', 'failed']);
    // an aborted chunk is not retried
    expect(h.engine.callsOf(PARAGRAPHS[1]!)).toHaveLength(1);
    // cancelling again changes nothing
    h.runner.cancel(job.id);
    expect(h.eventsOf(job.id)).toEqual(['added', 'progress', 'failed']);
  });

  it('retries a failed job as a new job with the same chunks', async () => {
    h.engine.behaviour = () => new Error('down');
    const first = await h.enqueue(PARAGRAPHS.join('\n\n'));
    expect((await h.ended(first.id)).state).toBe('failed');
    h.engine.behaviour = () => 'speak';
    const again = await h.runner.retry(h.store.get(first.id)!, h.registry.resolve({ voice: h.engine.voiceId }), null);
    expect(again.id).not.toBe(first.id);
    expect(h.store.chunks(again.id).map((c) => c.text)).toEqual(PARAGRAPHS);
    expect((await h.ended(again.id)).state).toBe('done');
  });

  it('speaks chunks with their own voice and prosody (SSML), and keeps them in a retry', async () => {
    const resolved = h.registry.resolve({ voice: h.engine.voiceId });
    const own = { voice: h.engine.voiceId, local_voice: resolved.localName, rate: 1.5, pitch: 0.8, volume: 0.5 };
    const chunks = [
      { text: PARAGRAPHS[0]!, pauseMs: PARAGRAPH_PAUSE_MS },
      { text: PARAGRAPHS[1]!, pauseMs: PARAGRAPH_PAUSE_MS, own },
    ];
    const job = { title: 't', characters: 100, ...PROSODY, expiresAt: null, output: WAV_OUTPUT };
    h.engine.behaviour = () => new Error('down');
    const failed = await h.ended((await h.runner.enqueueChunks(resolved, chunks, job)).id);
    expect(h.store.chunks(failed.id).map((c) => c.rate)).toEqual([null, 1.5]);
    h.engine.behaviour = () => 'speak';
    const again = await h.ended((await h.runner.retry(h.store.get(failed.id)!, resolved, null)).id);
    expect(again.state).toBe('done');
    const [plain] = h.engine.callsOf(PARAGRAPHS[0]!).slice(-1);
    const [owned] = h.engine.callsOf(PARAGRAPHS[1]!).slice(-1);
    expect(plain!.request).toMatchObject(PROSODY);
    expect(owned!.request).toMatchObject({ rate: 1.5, pitch: 0.8, volume: 0.5 });
  });

  it("brings a chunk at another sample rate to the job's (the first chunk's)", async () => {
    // one chunk at a time (the harness's concurrency), so that the change lands between chunks
    h.engine.behaviour = (request) => {
      if (request.text === PARAGRAPHS[1]) h.engine.sampleRate = FAKE_SAMPLE_RATE * 2;
      return 'speak';
    };
    const done = await h.ended((await h.enqueue(PARAGRAPHS.join('\n\n'))).id);
    expect(done.error_message).toBeNull();
    expect(done.state).toBe('done');
    expect(done.sample_rate).toBe(FAKE_SAMPLE_RATE);
    // at half the engine's rate, the chunk keeps half its samples
    const [first, second] = h.store.chunks(done.id);
    expect(second!.samples).toBe((PARAGRAPHS[1]!.length * SAMPLES_PER_CHAR) / 2);
    expect(first!.samples).toBe(PARAGRAPHS[0]!.length * SAMPLES_PER_CHAR);
  });

  it('resumes jobs left running by a crash from their saved chunks', async () => {
    h.engine.behaviour = (request) => (request.text === PARAGRAPHS[2] ? 'hang' : 'speak');
    const job = await h.enqueue(PARAGRAPHS.join('\n\n'));
    await vi.waitFor(() => expect(h.store.get(job.id)!.chunks_done).toBe(2));
    await h.runner.stop(0); // the hung chunk is aborted; the job stays running in the store
    expect(h.store.get(job.id)!.state).toBe('running');

    const calls = h.engine.calls.length;
    h.engine.behaviour = () => 'speak';
    const { store, registry, dataDir, disk } = h;
    const next = new JobRunner({ store, registry, dataDir, disk, concurrency: 1, maxQueuedJobs: 10, maxQueuedChars: 10_000 });
    const done = new Promise<void>((resolve) => next.on('job', (c) => c.type === 'done' && resolve()));
    await next.recover();
    expect(h.store.get(job.id)!.state).toBe('queued');
    next.start();
    await done;
    // only the chunk that was not saved is synthesized again
    expect(h.engine.calls.slice(calls).map((c) => c.request.text)).toEqual([PARAGRAPHS[2]]);
    expect(h.store.get(job.id)!.state).toBe('done');
    await next.stop(0);
  });
});
