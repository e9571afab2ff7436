/**
 * "Re-render with the lexicon" over HTTP on a real gateway with the embedded eSpeak NG: a plain
 * job said again after a lexicon entry synthesizes exactly the sentences the entry changed (the
 * texts the engine adapter was asked to speak are counted); every other sentence is the old job's
 * audio, sample for sample. Sentence edits of a plain job go through the render cache.
 */
import { describe, expect, it } from 'vitest';
import type { Job, JobRerenderAccepted, JobRerenderPlan, JobTimings, SentenceTiming } from '../contract';
import { decodeWav } from '../audio/wav';
import { expectSpeech } from '../testing/audio';
import { recordSpoken } from '../testing/engine-calls';
import { useTestGateways, finishedJob as finished, waitForJob, type TestGateway } from '../testing/gateway';

const JOBS = '/api/v1/tts/jobs';
const VOICE = 'espeak-ng:en-us';
/** eSpeak NG's rate. */
const RATE = 22_050;

/** Ten sentences in two paragraphs, the name in three; a plain job chunks several sentences together. */
const STORY = `Branoc rowed out at dawn. The gulls followed his boat. The water was grey and calm. He counted the nets twice. The wind rose in the west.

Rain struck the deck. Branoc tied the sail down. The boat leaned hard. The storm passed by noon. Branoc's wife waited on the quay.`;

const ALIASED = [
  'Bran nock the fisherman rowed out at dawn.',
  'Bran nock the fisherman tied the sail down.',
  "Bran nock the fisherman's wife waited on the quay.",
];

const gateways = useTestGateways();
let gateway: TestGateway;

const put = (route: string, body: unknown) =>
  gateway.api(route, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
/** The re-render takes no body. */
const postRerender = (id: string) => gateway.api(`${JOBS}/${id}/rerender`, { method: 'POST' });

const finishedJob = (text: string, extra: Record<string, unknown> = {}) => finished(gateway, text, { voice: VOICE, ...extra });

async function audio(id: string): Promise<Int16Array> {
  const wav = Buffer.from(await (await gateway.api(`${JOBS}/${id}/audio`)).arrayBuffer());
  expectSpeech(wav, { minSeconds: 10, maxSeconds: 60 });
  return decodeWav(wav).samples;
}

const timings = async (id: string) => ((await (await gateway.api(`${JOBS}/${id}/timings`)).json()) as JobTimings).sentences;

async function plan(id: string): Promise<JobRerenderPlan> {
  const response = await gateway.api(`${JOBS}/${id}/rerender-plan`);
  expect(response.status).toBe(200);
  return (await response.json()) as JobRerenderPlan;
}

async function rerender(id: string): Promise<JobRerenderAccepted> {
  const response = await postRerender(id);
  expect(response.status).toBe(202);
  const accepted = (await response.json()) as JobRerenderAccepted;
  expect(response.headers.get('location')).toBe(`${JOBS}/${accepted.job_id}`);
  expect((await waitForJob(gateway, accepted.job_id)).status).toBe('done');
  return accepted;
}

const setLexicon = (entries: unknown[]) => put('/api/v1/tts/lexicon', { entries });
const bytes = (samples: Int16Array) => Buffer.from(samples.buffer, samples.byteOffset, samples.byteLength);
/** A sentence's samples as its timings place them (milliseconds: a sample either side is left out). */
const said = (samples: Int16Array, s: SentenceTiming) => samples.subarray(Math.round(s.start_s * RATE) + 2, Math.round(s.end_s * RATE) - 2);

describe('re-rendering a job with the lexicon', () => {
  it('synthesizes exactly the three sentences a name fix changed; the others are the old audio', async () => {
    gateway = await gateways.start();
    const original = await finishedJob(STORY);
    const before = await audio(original);
    const beforeTimings = await timings(original);
    expect(beforeTimings).toHaveLength(10);
    const spoken = recordSpoken(gateway, VOICE);

    // nothing changed yet: every sentence would come from the job's audio
    expect(await plan(original)).toMatchObject({ changed: 0, sentences: 0, texts: [] });
    expect((await setLexicon([{ grapheme: 'Branoc', alias: 'Bran nock the fisherman', language: 'en' }])).status).toBe(200);
    const fix = await plan(original);
    expect(fix).toMatchObject({ changed: 3, sentences: 3, summary: expect.stringMatching(/^3 sentences to synthesize/) });
    expect(fix.texts).toEqual([
      { index: 0, text: 'Branoc rowed out at dawn.' },
      { index: 6, text: 'Branoc tied the sail down.' },
      { index: 9, text: "Branoc's wife waited on the quay." },
    ]);
    expect(fix.characters).toBe(ALIASED.join('').length);
    expect(spoken.texts).toEqual([]);

    const accepted = await rerender(original);
    expect(accepted).toMatchObject({ sentences: 3, reused: 7, status: 'running' });
    expect(spoken.texts).toEqual(ALIASED);

    const after = await audio(accepted.job_id);
    const afterTimings = await timings(accepted.job_id);
    expect(afterTimings.map((s) => s.text)).toEqual(beforeTimings.map((s) => s.text));
    expect(afterTimings.map((s) => s.paragraph_end)).toEqual(beforeTimings.map((s) => s.paragraph_end));
    expect(afterTimings.filter((s) => s.paragraph_end).map((s) => s.text)).toContain('The wind rose in the west.');
    // longer by the three aliases, about as long otherwise
    const seconds = (n: number) => n / RATE;
    expect(seconds(after.length)).toBeGreaterThan(seconds(before.length) + 1);
    expect(seconds(after.length)).toBeLessThan(seconds(before.length) + 6);
    for (const [n, sentence] of afterTimings.entries()) {
      const old = bytes(said(before, beforeTimings[n]!));
      const region = bytes(after.subarray(Math.round(sentence.start_s * RATE) - 30, Math.round(sentence.end_s * RATE) + 30));
      expect(region.indexOf(old) >= 0, sentence.text).toBe(!sentence.text.includes('Branoc'));
    }
    // the old job stays as it was
    expect(bytes(await audio(original)).equals(bytes(before))).toBe(true);

    // the same fix again: its sentences are in the render cache, nothing is spoken
    spoken.clear();
    expect(await plan(original)).toMatchObject({ changed: 3, sentences: 0, summary: '3 sentences changed, all in the render cache.' });
    const again = await rerender(original);
    expect(again).toMatchObject({ sentences: 0, reused: 7 });
    expect(spoken.texts).toEqual([]);
    expect(bytes(await audio(again.job_id)).equals(bytes(after))).toBe(true);
    // the re-rendered job, one sentence a chunk, said again: everything from its audio
    expect(await plan(accepted.job_id)).toMatchObject({ changed: 0, sentences: 0 });
  });

  it('takes a compressed job without its WAV from the render cache and the engine', async () => {
    gateway = await gateways.start();
    const mp3 = await finishedJob('The bell rang twice. Mara opened the door.', { format: 'mp3' });
    const spoken = recordSpoken(gateway, VOICE);
    expect(await plan(mp3)).toMatchObject({ changed: 2, sentences: 2 });
    const accepted = await rerender(mp3);
    expect(accepted).toMatchObject({ sentences: 2, reused: 0 });
    expect(spoken.texts).toEqual(['The bell rang twice.', 'Mara opened the door.']);
    const job = (await (await gateway.api(`${JOBS}/${accepted.job_id}`)).json()) as Job;
    expect(job).toMatchObject({ status: 'done', format: 'mp3' });
  });

  it('sends a sentence edit of a plain job through the render cache: an edit back to a text said before is not synthesized', async () => {
    gateway = await gateways.start();
    const id = await finishedJob('The bell rang twice. Mara opened the door. Nobody came.');
    const spoken = recordSpoken(gateway, VOICE);
    const edit = async (text: string) => expect((await put(`${JOBS}/${id}/sentences/1`, { text })).status).toBe(200);
    await edit('Mara shut the door.');
    await edit('Mara opened the door.');
    expect(spoken.texts).toHaveLength(2);
    await edit('Mara shut the door.');
    expect(spoken.texts).toHaveLength(2);
    expect((await timings(id)).map((s) => s.text)).toEqual(['The bell rang twice.', 'Mara shut the door.', 'Nobody came.']);
  });

  it('answers 404 for a job it does not know, 409 for one not finished, 400 for one made from SSML', async () => {
    gateway = await gateways.start();
    for (const route of [`${JOBS}/00000000-0000-4000-8000-000000000000`, `${JOBS}/not-a-job`]) {
      const planned = await gateway.api(`${route}/rerender-plan`);
      expect(planned.status).toBe(404);
      expect(((await planned.json()) as { error: { code: string } }).error.code).toBe('job_not_found');
      expect((await gateway.api(`${route}/rerender`, { method: 'POST' })).status).toBe(404);
    }
    const ssml = await finishedJob('<speak>The <say-as interpret-as="characters">BBC</say-as> said so.</speak>', { text_type: 'ssml' });
    const refused = await postRerender(ssml);
    expect(refused.status).toBe(400);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toMatch(/SSML/);

    gateway.pauseQueue();
    const queued = await gateway.post('/api/v1/tts/synthesize', { text: 'Still waiting.', voice: VOICE, mode: 'job' });
    const { job_id } = (await queued.json()) as { job_id: string };
    for (const answer of [await gateway.api(`${JOBS}/${job_id}/rerender-plan`), await postRerender(job_id)]) {
      expect(answer.status).toBe(409);
      expect(((await answer.json()) as { error: { code: string } }).error.code).toBe('job_not_finished');
    }
    gateway.resumeQueue();
  });
});
