import Database from 'better-sqlite3';
import { mkdtemp } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeWav } from '../audio/wav';
import type { Job, JobTimings } from '../contract';
import { DATABASE_FILE } from '../storage/database';
import { useTestGateways, waitForJob, type TestGateway } from '../testing/gateway';
import { prose } from '../testing/prose';

const gateways = useTestGateways();

async function queue(gateway: TestGateway, text: string): Promise<string> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job' });
  expect(response.status).toBe(202);
  return ((await response.json()) as { job_id: string }).job_id;
}

const getTimings = (gateway: TestGateway, id: string) => gateway.api(`/api/v1/tts/jobs/${id}/timings`);
const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;
const codePointSlice = (text: string, start: number, end: number) => [...text].slice(start, end).join('');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

// timings are in whole milliseconds: the last sentence's end may round past the last sample
function rms(samples: Int16Array, from: number, until: number): number {
  const to = Math.min(until, samples.length);
  let energy = 0;
  for (let i = from; i < to; i++) energy += samples[i]! * samples[i]!;
  return Math.sqrt(energy / Math.max(1, to - from));
}

// irregular whitespace, a character outside the BMP, two paragraphs, and enough prose for several chunks
const TEXT = `  Chapter one.\tThe 𝔸 road   was long.\n\nShe walked it alone!  ${prose(1400)}\n\nThe end.`;

describe('GET /jobs/{id}/timings', () => {
  it("places every sentence in the job's text and in its audio, at the pauses", async () => {
    const gateway = await gateways.start();
    const id = await queue(gateway, TEXT);
    expect((await waitForJob(gateway, id)).status).toBe('done');
    const job = (await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as Job;

    const response = await getTimings(gateway, id);
    expect(response.status).toBe(200);
    const timings = (await response.json()) as JobTimings;
    expect(timings.duration_s).toBeCloseTo(job.audio!.duration_s, 2);

    // every sentence, in order, where it is in the text as sent (code points)
    const expected = TEXT.split(/\n\s*\n/).flatMap((paragraph) => oneLine(paragraph).split(/(?<=[.!])\s/));
    expect(timings.sentences.map((s) => s.text)).toEqual(expected);
    for (const sentence of timings.sentences) {
      expect(oneLine(codePointSlice(TEXT, sentence.text_start, sentence.text_end))).toBe(sentence.text);
    }
    expect(timings.sentences.filter((s) => s.paragraph_end).map((s) => s.text)).toEqual(['The 𝔸 road was long.', expected.at(-2)]);

    // in order in the audio, each sentence loud and each gap between two sentences quiet
    const { samples, sampleRate } = decodeWav(Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${id}/audio`)).arrayBuffer()));
    const at = (seconds: number) => Math.round(seconds * sampleRate);
    let previousEnd = 0;
    for (const sentence of timings.sentences) {
      expect(sentence.start_s).toBeGreaterThanOrEqual(previousEnd);
      expect(sentence.end_s).toBeGreaterThan(sentence.start_s + 0.3);
      expect(rms(samples, at(sentence.start_s), at(sentence.end_s))).toBeGreaterThan(500);
      if (previousEnd > 0 && sentence.start_s - previousEnd >= 0.05) {
        expect(rms(samples, at(previousEnd), at(sentence.start_s))).toBeLessThan(100);
      }
      previousEnd = sentence.end_s;
    }
    expect(previousEnd).toBeLessThanOrEqual(timings.duration_s);
    // most boundaries fall in a pause rather than at an estimate
    const gaps = timings.sentences.slice(1).filter((s, k) => s.start_s - timings.sentences[k]!.end_s >= 0.05);
    expect(gaps.length).toBeGreaterThanOrEqual(timings.sentences.length - 2);
  });

  it('answers 404 for an unknown job, 409 while it runs, and 404 timings_unavailable for a job made before timings', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-timings-'));
    const gateway = await gateways.start({ dataDir });
    const unknown = await getTimings(gateway, '00000000-0000-4000-8000-000000000000');
    expect([unknown.status, await errorCode(unknown)]).toEqual([404, 'job_not_found']);

    // held in the paused queue, so it is unfinished when asked
    gateway.pauseQueue();
    const id = await queue(gateway, 'Timings come once the job is done. Not before.');
    const running = await getTimings(gateway, id);
    expect([running.status, await errorCode(running)]).toEqual([409, 'job_not_finished']);
    gateway.resumeQueue();
    expect((await waitForJob(gateway, id)).status).toBe('done');
    expect((await getTimings(gateway, id)).status).toBe(200);

    // as a version before migration 4 left it: chunks without their sentences
    await gateways.close(gateway);
    const db = new Database(path.join(dataDir, DATABASE_FILE));
    db.prepare('UPDATE chunks SET sentences = NULL, sentence_samples = NULL WHERE job_id = ?').run(id);
    db.close();
    const again = await gateways.start({ dataDir });
    const legacy = await getTimings(again, id);
    expect([legacy.status, await errorCode(legacy)]).toEqual([404, 'timings_unavailable']);
    expect((await again.api(`/api/v1/tts/jobs/${id}/audio`)).status).toBe(200);
  });
});
