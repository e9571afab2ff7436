/**
 * What a request can hold for as long as its client likes is bounded per key (gateway/slots.ts):
 * encoders (streamed speech, job audio sent in another format, the export being made) and
 * exports. Clients that ask and never read hold their answer's encoder; the test makes them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pcmBytes, WAV_HEADER_BYTES, wavHeader } from '../audio/wav';
import type { Export } from '../contract';
import { JobFiles } from '../jobs/files';
import { startTestGateway, finishedJob, type TestGateway } from '../testing/gateway';
import { stallAfterStatus, type StalledClient } from '../testing/raw-http';
import { SLOT_LIMITS } from './slots';

let gateway: TestGateway;
/** A finished job whose WAV holds 20 minutes of speech (made by repeating its own): far more than a socket buffers. */
let longJob: string;
/** A short finished job, to export. */
let shortJob: string;
const stalled: StalledClient[] = [];

const finished = (text: string) => finishedJob(gateway, text);

beforeAll(async () => {
  gateway = await startTestGateway();
  longJob = await finished('A sentence that is repeated until it fills twenty minutes of audio.');
  shortJob = await finished('A short chapter. It ends here.');
  const file = new JobFiles(gateway.dataDir).audioFile(longJob, 'wav');
  const speech = (await readFile(file)).subarray(WAV_HEADER_BYTES);
  const samples = new Int16Array(22050 * 60 * 20);
  const own = new Int16Array(speech.buffer, speech.byteOffset, speech.length / 2);
  for (let at = 0; at < samples.length; at += own.length) samples.set(own.subarray(0, samples.length - at), at);
  await writeFile(file, Buffer.concat([wavHeader(22050, samples.byteLength), pcmBytes(samples)]));
}, 120_000);
afterAll(async () => {
  for (const client of stalled) client.close();
  await gateway.stop();
});

const auth = () => ({ authorization: `Bearer ${gateway.apiKey}` });
const stall = async (path: string) => {
  const client = await stallAfterStatus(gateway.port, path, auth());
  stalled.push(client);
  return client;
};
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe('encoders, per key', () => {
  it(`${SLOT_LIMITS.encoders.perKey} downloads in another format at once; the next answers 429 with Retry-After until one ends`, async () => {
    const flac = `/api/v1/tts/jobs/${longJob}/audio?format=flac`;
    const held = [];
    for (let i = 0; i < SLOT_LIMITS.encoders.perKey; i++) held.push(await stall(flac));
    expect(held.map((client) => client.status)).toEqual(Array(SLOT_LIMITS.encoders.perKey).fill(200));

    const refused = await gateway.api(flac);
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await errorOf(refused)).toMatchObject({ code: 'too_many_streams', message: expect.stringContaining('8 encoders in use') });
    // one pool for every encoder: streamed speech too
    const speech = await gateway.post('/api/v1/tts/synthesize', { text: 'Streamed.', stream: true });
    expect(speech.status).toBe(429);
    // the stored file holds no encoder
    const stored = await gateway.api(`/api/v1/tts/jobs/${shortJob}/audio`);
    expect(stored.status).toBe(200);
    await stored.arrayBuffer();

    held[0]!.close();
    await expect.poll(async () => (await stall(flac)).status).toBe(200);
  });

  it('exports wait for an encoder; past 4 waiting or being made, the next answers 429 too_many_exports', async () => {
    // the key's encoders are all held by the clients above
    const posted = [];
    for (let i = 0; i < SLOT_LIMITS.exports.perKey; i++) {
      const response = await gateway.post('/api/v1/tts/exports', { job_ids: [shortJob], format: 'mp3' });
      expect(response.status).toBe(202);
      posted.push(((await response.json()) as { poll: string }).poll);
    }
    const refused = await gateway.post('/api/v1/tts/exports', { job_ids: [shortJob], format: 'mp3' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('30');
    expect(await errorOf(refused)).toMatchObject({ code: 'too_many_exports', message: expect.stringContaining('4 exports') });
    const waiting = (await (await gateway.api(posted[0]!)).json()) as Export;
    expect([waiting.status, waiting.progress]).toEqual(['running', 0]);

    // encoders freed: the exports are made, one after another, and their places given back
    for (const client of stalled.splice(0)) client.close();
    for (const poll of posted) {
      await expect.poll(async () => ((await (await gateway.api(poll)).json()) as Export).status, { timeout: 60_000 }).toBe('done');
    }
    expect((await gateway.post('/api/v1/tts/exports', { job_ids: [shortJob], format: 'mp3' })).status).toBe(202);
  });
});
