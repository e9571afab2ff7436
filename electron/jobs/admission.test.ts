import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../contract';
import { startJobHarness, PROSODY, WAV_OUTPUT, type JobHarness } from '../testing/job-harness';
import { admitJob, estimateAudioBytes, jobDiskKey, type JobOutput, type NewJob } from './admission';
import { DiskBudget } from './disk-budget';

// admitJob on its own: an in-memory store and the fake engine's voice, no runner, no HTTP.

let h: JobHarness;
beforeEach(async () => {
  h = await startJobHarness();
  h.runner.pause(); // admitted jobs stay queued
});
afterEach(() => h.close());

const job = (characters: number, output: JobOutput = WAV_OUTPUT): NewJob => ({
  title: 'T',
  characters,
  ...PROSODY,
  expiresAt: null,
  output,
});
const chunks = [
  { text: 'One.', pauseMs: 250 },
  { text: 'Two.', pauseMs: 700 },
];
const admit = (characters: number, bounds = { maxQueuedJobs: 2, maxQueuedChars: 100 }, disk = h.disk) =>
  admitJob({ store: h.store, disk, bounds }, h.registry.resolve({ voice: h.engine.voiceId }), chunks, job(characters));

const MIN_FREE = 1_000_000_000;
/** A disk with a fixed amount free (a double of the file system's statfs): the estimate decides alone. */
function diskWithFree(bytes: number): DiskBudget {
  return new (class extends DiskBudget {
    override free = () => Promise.resolve(bytes);
  })(h.dataDir, MIN_FREE);
}

async function refusal(admitting: Promise<unknown>): Promise<ApiError> {
  const error = await admitting.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

describe('admitJob', () => {
  it('stores the job queued, with its chunks, voice and expiry', async () => {
    const row = await admit(8);
    expect(row).toMatchObject({
      state: 'queued',
      engine: 'fake',
      voice: 'fake:plain',
      local_voice: 'plain',
      chunks_total: 2,
      characters: 8,
    });
    expect(h.store.chunks(row.id).map((c) => [c.text, c.pause_ms, c.done])).toEqual([
      ['One.', 250, 0],
      ['Two.', 700, 0],
    ]);
  });

  it('refuses a job when the queue holds its maximum of jobs: 429 queue_full, retry after 30 s', async () => {
    await admit(1);
    await admit(1);
    const error = await refusal(admit(1));
    expect(error.code).toBe('queue_full');
    expect(error.status).toBe(429);
    expect(error.retryAfterS).toBe(30);
    expect(h.store.unfinishedTotals().jobs).toBe(2);
  });

  it('refuses a job that would pass the characters of the queue, and one that never fits: 413', async () => {
    await admit(60);
    const full = await refusal(admit(41));
    expect(full.code).toBe('queue_full');
    expect(full.message).toBe('The queue holds 60 characters of unfinished jobs; 41 more would pass its limit of 100. Try again later.');
    const never = await refusal(admit(101));
    expect(never.code).toBe('text_too_long');
    expect(never.retryAfterS).toBeUndefined();
    await admit(40); // exactly up to the limit is fine
  });

  it("refuses a job whose audio estimate does not fit above the disk's free minimum: 507, nothing stored", async () => {
    const needed = estimateAudioBytes(10, 1, h.engine.sampleRate, WAV_OUTPUT);
    const error = await refusal(admit(10, undefined, diskWithFree(MIN_FREE + needed - 1)));
    expect(error.code).toBe('insufficient_storage');
    expect(error.status).toBe(507);
    expect(h.store.unfinishedTotals().jobs).toBe(0);
    await admit(10, undefined, diskWithFree(MIN_FREE + needed));
  });

  it('counts what accepted jobs reserved and have not written: a job that fits alone is refused beside them, and fits once they end', async () => {
    const needed = estimateAudioBytes(10, 1, h.engine.sampleRate, WAV_OUTPUT);
    const disk = diskWithFree(MIN_FREE + 1.5 * needed);
    const first = await admit(10, undefined, disk);
    const error = await refusal(admit(10, undefined, disk));
    expect([error.code, error.status]).toEqual(['insufficient_storage', 507]);
    expect(error.message).toMatch(/ MB must stay free and [\d.]+ MB are set aside for work already accepted\./);
    expect(h.store.unfinishedTotals().jobs).toBe(1);
    disk.release(jobDiskKey(first.id));
    await admit(10, undefined, disk);
  });

  it('gives the room back when the queue refuses the job after the disk accepted it', async () => {
    const needed = estimateAudioBytes(10, 1, h.engine.sampleRate, WAV_OUTPUT);
    const disk = diskWithFree(MIN_FREE + 1.5 * needed);
    expect((await refusal(admit(10, { maxQueuedJobs: 0, maxQueuedChars: 100 }, disk))).code).toBe('queue_full');
    await admit(10, undefined, disk);
  });

  it('estimates a WAV job as its 16-bit samples at 0.1 s per character (no chunk files: they go into it in turn), less at a faster rate', () => {
    expect(estimateAudioBytes(1000, 1, 22050, WAV_OUTPUT)).toBe(1000 * 0.1 * 22050 * 2);
    expect(estimateAudioBytes(1000, 2, 22050, WAV_OUTPUT)).toBe(estimateAudioBytes(1000, 1, 22050, WAV_OUTPUT) / 2);
  });

  it('estimates a compressed job as its chunk files plus its bitrate with a margin, plus its WAV only when kept', () => {
    const seconds = 1000 * 0.1;
    const chunkFiles = seconds * 22050 * 2;
    const mp3 = { format: 'mp3', bitrateKbps: 128, keepWav: false } as const;
    expect(estimateAudioBytes(1000, 1, 22050, mp3)).toBe(chunkFiles + (seconds * 1.5 * 128_000) / 8);
    expect(estimateAudioBytes(1000, 1, 22050, { ...mp3, keepWav: true })).toBe(2 * chunkFiles + (seconds * 1.5 * 128_000) / 8);
    // pcm is 24 kHz whatever the voice's rate; flac is counted as the WAV it never outgrows
    expect(estimateAudioBytes(1000, 1, 22050, { format: 'pcm', bitrateKbps: undefined, keepWav: false })).toBe(
      chunkFiles + seconds * 48_000,
    );
    expect(estimateAudioBytes(1000, 1, 22050, { format: 'flac', bitrateKbps: undefined, keepWav: false })).toBe(2 * chunkFiles);
  });

  it('stores the format, bitrate and keep_wav; a WAV job never keeps a second WAV', async () => {
    const voice = h.registry.resolve({ voice: h.engine.voiceId });
    const admitAs = (output: JobOutput) =>
      admitJob({ store: h.store, disk: h.disk, bounds: { maxQueuedJobs: 9, maxQueuedChars: 100 } }, voice, chunks, job(1, output));
    expect(await admitAs({ format: 'ogg', bitrateKbps: 24, keepWav: true })).toMatchObject({
      format: 'ogg',
      bitrate_kbps: 24,
      keep_wav: 1,
    });
    expect(await admitAs({ format: 'wav', bitrateKbps: undefined, keepWav: true })).toMatchObject({
      format: 'wav',
      bitrate_kbps: null,
      keep_wav: 0,
    });
  });
});
