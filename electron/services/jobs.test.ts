import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseWav } from '../audio/wav';
import type { FormatQuery, JobEvent } from '../contract';
import type { JobOutput } from '../jobs/admission';
import { FAKE_SAMPLE_RATE } from '../testing/fake-engine';
import { PROSODY, startJobHarness, type JobHarness } from '../testing/job-harness';
import { JobService } from './jobs';

// JobService built directly on the job runner, the fake engine and an in-memory job store: no HTTP.

let h: JobHarness;
let jobs: JobService;
let retentionHours = 0;
beforeEach(async () => {
  h = await startJobHarness();
  retentionHours = 0;
  jobs = new JobService(h.store, h.runner, h.registry, () => retentionHours);
});
afterEach(() => h.close());

async function doneJob(text = 'Some text.', output?: JobOutput): Promise<string> {
  const { id } = await h.enqueue(text, PROSODY, output);
  await h.ended(id);
  return id;
}

/** The stored file audio() answers with (it must be one). */
async function storedFile(id: string, request: FormatQuery = {}): Promise<string> {
  const audio = await jobs.audio(id, request);
  if (audio.kind !== 'file') throw new Error(`expected a stored file, got ${audio.kind}`);
  return audio.file;
}

async function bytesOf(body: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const parts: Uint8Array[] = [];
  for await (const part of body) parts.push(part);
  return Buffer.concat(parts);
}

describe('JobService', () => {
  it('edits one sentence of a job at a time: a second edit asked in the same turn is refused with 409 chunk_in_progress', async () => {
    const id = await doneJob('The first sentence. The second sentence.');
    // both asked in one turn of the event loop: the second finds the first's lock, taken before any await
    const [first, second] = await Promise.allSettled([jobs.editSentence(id, '0', 'A new first.'), jobs.editSentence(id, '1', 'Another.')]);
    expect(first.status).toBe('fulfilled');
    expect(second).toMatchObject({ status: 'rejected', reason: { code: 'chunk_in_progress', status: 409 } });
    // the lock goes with the edit, whether it succeeded or not
    await expect(jobs.editSentence(id, '9', 'No such sentence.')).rejects.toMatchObject({ code: 'not_found' });
    await expect(jobs.editSentence(id, '1', 'Then this.')).resolves.toMatchObject({ status: 'done' });
  });

  it('shows a job as the API does, and refuses ids it does not know', async () => {
    const id = await doneJob();
    const job = await jobs.get(id);
    expect(job).toMatchObject({ job_id: id, status: 'done', progress: { done: 1, total: 1 }, engine: 'fake', voice: 'fake:plain' });
    expect(job.audio).toMatchObject({ url: `/api/v1/tts/jobs/${id}/audio`, content_type: 'audio/wav' });
    await expect(jobs.get('not-a-job-id')).rejects.toMatchObject({ code: 'job_not_found', status: 404 });
    await expect(jobs.get(crypto.randomUUID())).rejects.toMatchObject({ code: 'job_not_found' });
  });

  it('lists newest first in pages joined by a cursor, and filters by status', async () => {
    h.engine.behaviour = (request) => (request.text === 'Fails.' ? new Error('no') : 'speak');
    const ids = [await doneJob('One.'), await doneJob('Fails.'), await doneJob('Three.')];
    const first = await jobs.list({ limit: 2 });
    expect(first.jobs.map((j) => j.job_id)).toEqual([ids[2], ids[1]]);
    const second = await jobs.list({ limit: 2, cursor: first.next_cursor! });
    expect(second.jobs.map((j) => j.job_id)).toEqual([ids[0]]);
    expect(second.next_cursor).toBeUndefined();
    expect((await jobs.list({ status: 'failed' })).jobs.map((j) => j.job_id)).toEqual([ids[1]]);
    expect((await jobs.list({})).jobs).toHaveLength(3);
    await expect(jobs.list({ cursor: 'bogus' })).rejects.toMatchObject({ code: 'invalid_request' });
  });

  it('cancels a running job, and deletes a finished one with its audio', async () => {
    h.engine.behaviour = () => 'hang';
    const running = await h.enqueue('Never ends.');
    await vi.waitFor(() => expect(h.engine.calls).toHaveLength(1));
    expect(await jobs.cancelOrDelete(running.id)).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });

    h.engine.behaviour = () => 'speak';
    const id = await doneJob();
    const audio = await storedFile(id);
    expect(existsSync(audio)).toBe(true);
    expect(await jobs.cancelOrDelete(id)).toBeNull();
    expect(existsSync(audio)).toBe(false);
    await expect(jobs.get(id)).rejects.toMatchObject({ code: 'job_not_found' });
  });

  it('retries failed jobs only', async () => {
    h.engine.behaviour = () => new Error('down');
    const failed = await doneJob();
    h.engine.behaviour = () => 'speak';
    await expect(jobs.retry(await doneJob())).rejects.toMatchObject({ code: 'invalid_request' });
    const again = await jobs.retry(failed);
    expect(again.job_id).not.toBe(failed);
    expect((await h.ended(again.job_id)).state).toBe('done');
  });

  it('serves audio only when it is there: not finished (retry after 1 s), failed, missing', async () => {
    h.engine.behaviour = () => 'hang';
    const { id: running } = await h.enqueue('Waits.');
    await expect(jobs.audio(running)).rejects.toMatchObject({ code: 'job_not_finished', status: 409, retryAfterS: 1 });
    h.runner.cancel(running);
    await expect(jobs.audio(running)).rejects.toMatchObject({ code: 'job_failed' });

    h.engine.behaviour = () => 'speak';
    const id = await doneJob();
    await rm(await storedFile(id));
    await expect(jobs.peaks(id)).rejects.toMatchObject({ code: 'audio_missing', status: 410 });
    expect(await jobs.get(id)).toMatchObject({ status: 'done', audio_unavailable: { code: 'audio_missing' } });
  });

  it('sends a job in its own format as its stored file, and in another encoded from its WAV', async () => {
    const id = await doneJob();
    expect(await storedFile(id)).toBe(h.runner.files.audioFile(id, 'wav'));
    expect(await storedFile(id, { format: 'wav' })).toBe(h.runner.files.audioFile(id, 'wav'));
    const mp3 = await jobs.audio(id, { format: 'mp3', bitrate_kbps: 32 });
    if (mp3.kind !== 'encoded') throw new Error('expected encoded audio');
    expect(mp3.format).toBe('mp3');
    const bytes = await bytesOf(mp3.body);
    expect(bytes.subarray(0, 3).toString('latin1') === 'ID3' || bytes[0] === 0xff).toBe(true);
    await expect(jobs.audio(id, { format: 'wav', bitrate_kbps: 64 })).rejects.toMatchObject({ code: 'invalid_request', status: 400 });
  });

  it('sends a compressed job only as stored, unless it keeps its WAV or is pcm', async () => {
    const mp3 = await doneJob('Some text.', { format: 'mp3', bitrateKbps: 64, keepWav: false });
    expect(await storedFile(mp3, { format: 'mp3' })).toBe(h.runner.files.audioFile(mp3, 'mp3'));
    for (const request of [{ format: 'wav' }, { format: 'mp3', bitrate_kbps: 32 }] as const) {
      const refusal = jobs.audio(mp3, request);
      await expect(refusal).rejects.toMatchObject({ code: 'format_unavailable', status: 409 });
      await expect(refusal).rejects.toThrow(/only as mp3 at 64 kbps .* keep_wav/);
    }

    const kept = await doneJob('Some text.', { format: 'ogg', bitrateKbps: 24, keepWav: true });
    expect(await storedFile(kept, { format: 'wav' })).toBe(h.runner.files.audioFile(kept, 'wav'));
    expect((await jobs.audio(kept, { format: 'flac' })).kind).toBe('encoded');
    // the kept WAV gone: an answer for it, but the job's own audio stands
    await rm(h.runner.files.audioFile(kept, 'wav'));
    await expect(jobs.audio(kept, { format: 'flac' })).rejects.toMatchObject({ code: 'audio_missing' });
    expect((await jobs.get(kept)).audio_unavailable).toBeUndefined();

    const pcm = await doneJob('Some text.', { format: 'pcm', bitrateKbps: undefined, keepWav: false });
    const wav = await jobs.audio(pcm, { format: 'wav' });
    if (wav.kind !== 'encoded') throw new Error('expected encoded audio');
    const file = await bytesOf(wav.body);
    // the pcm file's samples at 24 kHz, behind a streamed WAV header
    expect(parseWav(file).sampleRate).toBe(24_000);
    expect(file.length - 44).toBe((await readFile(h.runner.files.audioFile(pcm, 'pcm'))).length);
    expect((await jobs.get(pcm)).audio?.formats).toContain('wav');
    expect(FAKE_SAMPLE_RATE).not.toBe(24_000); // so the test shows the rate is pcm's, not the voice's
  });

  it('sets the expiry of new jobs from the retention read at that moment', () => {
    expect(jobs.expiryOfNewJob()).toBeNull();
    retentionHours = 2;
    const expiry = Date.parse(jobs.expiryOfNewJob()!);
    expect(Math.abs(expiry - (Date.now() + 2 * 3_600_000))).toBeLessThan(5_000);
  });

  it("streams one job's events, first where it stands, ending with done", async () => {
    h.runner.pause();
    const { id } = await h.enqueue('First.\n\nSecond.');
    const other = await h.enqueue('Other.');
    const feed = jobs.eventsOf(id);
    expect([...feed.backlog].flat().map((e) => [e.type, e.job.status])).toEqual([['progress', 'running']]);
    const events: JobEvent[] = [];
    const unsubscribe = feed.subscribe((event) => events.push(event));
    h.runner.resume();
    await h.ended(other.id);
    await h.ended(id);
    unsubscribe();
    expect(events.map((e) => e.type)).toEqual(['progress', 'progress', 'done']);
    expect(events.every((e) => e.job.job_id === id)).toBe(true);
    expect(events.map((e) => feed.isLast(e))).toEqual([false, false, true]);
    expect(jobs.events().isLast(events[2]!)).toBe(false); // the stream of all jobs never ends
  });
});
