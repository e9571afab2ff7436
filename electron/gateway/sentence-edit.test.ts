import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Job, JobTimings } from '../contract';
import { WAV_HEADER_BYTES } from '../audio/wav';
import { DATABASE_FILE } from '../storage/database';
import { useTestGateways, waitForJob, type TestGateway } from '../testing/gateway';

const gateways = useTestGateways();

// three paragraphs: three chunks
const TEXT = [
  'The lighthouse keeper climbed the stairs. The storm rolled in from the west.',
  'Below, the harbour lights flickered. The boats strained against their ropes.',
  'By morning the sea was calm again. The keeper went to sleep.',
].join('\n\n');
const NEW_SENTENCE = 'Far below, every light along the old harbour wall flickered and went out, one by one.';

async function finished(gateway: TestGateway, body: object): Promise<string> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text: TEXT, mode: 'job', ...body });
  const { job_id } = (await response.json()) as { job_id: string };
  expect((await waitForJob(gateway, job_id)).status).toBe('done');
  return job_id;
}

const put = (gateway: TestGateway, id: string, n: number | string, body: unknown) =>
  gateway.api(`/api/v1/tts/jobs/${id}/sentences/${n}`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
const wav = async (gateway: TestGateway, id: string) =>
  Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${id}/audio`)).arrayBuffer());
const timings = async (gateway: TestGateway, id: string) =>
  (await (await gateway.api(`/api/v1/tts/jobs/${id}/timings`)).json()) as JobTimings;
const errorCode = async (response: Response) => ((await response.json()) as { error: { code: string } }).error.code;

function chunkRows(gateway: TestGateway, id: string) {
  const db = new Database(path.join(gateway.dataDir, DATABASE_FILE), { readonly: true });
  try {
    return db.prepare('SELECT idx, samples, attempts, text FROM chunks WHERE job_id = ? ORDER BY idx').all(id) as {
      idx: number;
      samples: number;
      attempts: number;
      text: string;
    }[];
  } finally {
    db.close();
  }
}

describe('PUT /jobs/{id}/sentences/{n}', () => {
  it("re-renders only the sentence's chunk and splices it in; every other sample is unchanged", async () => {
    const gateway = await gateways.start();
    const id = await finished(gateway, {});
    const before = { wav: await wav(gateway, id), chunks: chunkRows(gateway, id), timings: await timings(gateway, id) };
    expect(before.chunks).toHaveLength(3);
    expect(before.timings.sentences[2]!.text).toBe('Below, the harbour lights flickered.');

    const response = await put(gateway, id, 2, { text: NEW_SENTENCE });
    expect(response.status).toBe(200);
    const job = (await response.json()) as Job;
    const after = { wav: await wav(gateway, id), chunks: chunkRows(gateway, id), timings: await timings(gateway, id) };

    // one chunk synthesized again, the second; the others were not touched
    expect(after.chunks.map((c) => c.attempts - before.chunks[c.idx]!.attempts)).toEqual([0, 1, 0]);
    expect(after.chunks[1]!.text).toContain(NEW_SENTENCE);
    const [first, oldSecond] = [before.chunks[0]!, before.chunks[1]!];
    const newSecond = after.chunks[1]!;
    expect(newSecond.samples).toBeGreaterThan(oldSecond.samples + 22050); // a longer sentence: over a second longer

    // the audio grows by exactly the difference, and is byte-identical outside the chunk
    const grown = (newSecond.samples - oldSecond.samples) * 2;
    expect(after.wav.length - before.wav.length).toBe(grown);
    expect(after.wav.readUInt32LE(40)).toBe(before.wav.readUInt32LE(40) + grown);
    const pause = Math.round(0.7 * 22050); // after a paragraph
    const start = WAV_HEADER_BYTES + (first.samples + pause) * 2;
    expect(after.wav.subarray(WAV_HEADER_BYTES, start).equals(before.wav.subarray(WAV_HEADER_BYTES, start))).toBe(true);
    expect(after.wav.subarray(start + newSecond.samples * 2).equals(before.wav.subarray(start + oldSecond.samples * 2))).toBe(true);
    expect(job.audio!.duration_s).toBeCloseTo(before.timings.duration_s + grown / 2 / 22050, 2);
    expect(job.audio!.bytes).toBe(after.wav.length);

    // timings: the new sentence in place, later sentences moved in the audio and in the text
    const shiftS = (newSecond.samples - oldSecond.samples) / 22050;
    expect(after.timings.sentences.map((s) => s.text)).toEqual(before.timings.sentences.map((s, i) => (i === 2 ? NEW_SENTENCE : s.text)));
    const [oldLast, newLast] = [before.timings.sentences.at(-1)!, after.timings.sentences.at(-1)!];
    expect(newLast.start_s).toBeCloseTo(oldLast.start_s + shiftS, 2);
    expect(newLast.text_start - oldLast.text_start).toBe([...NEW_SENTENCE].length - 'Below, the harbour lights flickered.'.length);
    expect(after.timings.sentences[0]).toEqual(before.timings.sentences[0]);
    // peaks are drawn again from the new audio
    const peaks = (await (await gateway.api(`/api/v1/tts/jobs/${id}/peaks`)).json()) as { duration_s: number };
    expect(peaks.duration_s).toBeCloseTo(job.audio!.duration_s, 2);
  });

  it('refuses what it cannot do, with the right status', async () => {
    const gateway = await gateways.start();
    const id = await finished(gateway, {});
    const gone = await put(gateway, id, 6, { text: 'Hello.' });
    expect([gone.status, await errorCode(gone)]).toEqual([404, 'not_found']);
    for (const body of [{ text: '  ' }, {}, { text: 'x', extra: 1 }]) expect((await put(gateway, id, 0, body)).status).toBe(400);
    for (const n of ['x', '-1', '1.5']) expect((await put(gateway, id, n, { text: 'Hello.' })).status).toBe(404);
    const long = await put(gateway, id, 0, { text: 'a'.repeat(501) });
    expect([long.status, await errorCode(long)]).toEqual([413, 'text_too_long']);
    const unknown = await put(gateway, '00000000-0000-4000-8000-000000000000', 0, { text: 'Hello.' });
    expect(unknown.status).toBe(404);
    // the job's audio is the source: a job kept only as FLAC cannot be spliced
    const flac = await finished(gateway, { format: 'flac' });
    const refused = await put(gateway, flac, 0, { text: 'Hello.' });
    expect([refused.status, await errorCode(refused)]).toEqual([409, 'format_unavailable']);
  });
});
