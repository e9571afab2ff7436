/**
 * Request validation as a property: for any JSON body, POST /synthesize and POST /preview answer
 * what the published schema (electron/contract, the same TypeBox the OpenAPI document comes
 * from) predicts: a body it refuses gets 400 invalid_request; a body it accepts gets a
 * well-formed WAV (audible when eSpeak NG has an ASCII letter or digit to say), a job that then
 * finishes, or 422 for a voice or engine that does not exist. Never a 5xx. Texts stay short, so
 * each inline answer is quick.
 */
import fc from 'fast-check';
import { Value } from 'typebox/value';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobPath, PreviewBody, SynthesizeBody, TTS_ROOT } from '../contract';
import { decodeWav } from '../audio/wav';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { outcomeOf } from '../testing/judge-answer';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

const json = fc.jsonValue({ maxDepth: 2 });
const text = fc.oneof(
  { weight: 3, arbitrary: fc.string({ maxLength: 24 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 8 }) },
  // UTF-16 code units: lone surrogates too
  { weight: 1, arbitrary: fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u)), maxLength: 6 }) },
  { weight: 1, arbitrary: fc.constantFrom('Hello there.', '?!', '😀', ' \n', '', '\u0000', 'a\u0000b') },
  { weight: 1, arbitrary: json },
);
const number = (...near: number[]) => fc.oneof(fc.constantFrom(...near), fc.double(), json);
const fields = fc.record(
  {
    text,
    voice: fc.oneof(fc.constantFrom('espeak-ng:en-us', 'espeak-ng:de', 'espeak-ng:xx', 'nope:en', '', ':', 'espeak-ng:'), json),
    engine: fc.oneof(fc.constantFrom('espeak-ng', 'gnuspeech', 'nope', ''), json),
    rate: number(0.5, 1, 2, 0.49, 2.01),
    pitch: number(0.5, 1, 2, 0.49, 2.01),
    volume: number(0, 1, 2, -0.01, 2.01),
    mode: fc.oneof(fc.constantFrom('auto', 'job', 'later'), json),
  },
  { requiredKeys: [] },
);
/** Bodies the schema mostly accepts, so that many requests synthesize. */
const plausible = fc.record(
  {
    text,
    voice: fc.constantFrom('espeak-ng:en-us', 'espeak-ng:de', 'espeak-ng:xx', 'gnuspeech:female'),
    engine: fc.constantFrom('espeak-ng', 'espeak-ng', 'gnuspeech', 'nope'),
    rate: fc.double({ min: 0.5, max: 2, noNaN: true }),
    pitch: fc.double({ min: 0.5, max: 2, noNaN: true }),
    volume: fc.double({ min: 0, max: 2, noNaN: true }),
    mode: fc.constantFrom('auto', 'job'),
  },
  { requiredKeys: ['text'] },
);
const unknownFields = fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 2 });
/** Plausible bodies, bodies with junk in any field, unknown fields; any JSON value now and then. */
const bodies = (withMode: boolean) =>
  fc.oneof(
    { weight: 10, arbitrary: withMode ? plausible : plausible.map(({ mode: _mode, ...rest }) => rest) },
    { weight: 3, arbitrary: fields },
    { weight: 1, arbitrary: fc.tuple(unknownFields, fields).map(([extra, known]) => ({ ...extra, ...known })) },
    { weight: 1, arbitrary: json },
  );

/** Keys the JSON parser refuses (prototype pollution): such a body is invalid_json whatever the schema says. */
function poisoned(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const own = (object: object, key: string) => Object.prototype.hasOwnProperty.call(object, key);
  if (own(value, '__proto__')) return true;
  const constructor = (value as Record<string, unknown>).constructor;
  if (own(value, 'constructor') && typeof constructor === 'object' && constructor !== null && own(constructor, 'prototype')) return true;
  return Object.values(value).some(poisoned);
}

type Wire = Record<string, unknown>;

/** Answers seen, by status (and code), for the report. */
const seen = new Map<string, number>();

/** Checks one answer against the schema's verdict; returns the job id of a 202. */
async function expectAsPredicted(route: string, schema: typeof SynthesizeBody | typeof PreviewBody, value: unknown) {
  const sent = JSON.stringify(value);
  const wire = JSON.parse(sent) as unknown;
  const response = await gateway.api(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: sent });
  const answer = {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  };
  const outcome = outcomeOf(answer, 'POST');
  const key = `${route.slice(TTS_ROOT.length)} ${outcome.status}${outcome.code ? ` ${outcome.code}` : ''}`;
  seen.set(key, (seen.get(key) ?? 0) + 1);
  expect(outcome.problem).toBeUndefined();
  if (poisoned(wire)) {
    expect(outcome.code).toBe('invalid_json');
    return undefined;
  }
  if (!Value.Check(schema, wire)) {
    expect(outcome.code).toBe('invalid_request');
    return undefined;
  }
  const body = wire as Wire;
  if (outcome.status >= 400) {
    expect(['unknown_voice', 'unknown_engine']).toContain(outcome.code);
    return undefined;
  }
  if (body.mode === 'job') {
    expect(outcome.status).toBe(202);
    return (JSON.parse(answer.body.toString('utf8')) as { job_id: string }).job_id;
  }
  expect(outcome.status).toBe(200);
  expect(answer.headers['content-type']).toBe('audio/wav');
  const volume = (body.volume as number | undefined) ?? 1;
  if (answer.headers['x-orator-engine'] === 'espeak-ng' && volume >= 0.5 && /[A-Za-z0-9]/.test(String(body.text ?? 'sample'))) {
    const peak = decodeWav(answer.body).samples.reduce((max, s) => Math.max(max, Math.abs(s)), 0);
    expect(peak).toBeGreaterThan(500);
  }
  return undefined;
}

describe('request validation, for any JSON body', () => {
  it('POST /synthesize answers as the schema predicts: audio, a job that finishes, or the documented 4xx', async () => {
    const jobs: string[] = [];
    await fc.assert(
      fc.asyncProperty(bodies(true), async (value) => {
        const job = await expectAsPredicted(`${TTS_ROOT}/synthesize`, SynthesizeBody, value);
        if (job) jobs.push(job);
      }),
      { numRuns: 150 },
    );
    for (const id of jobs) expect([id, (await waitForJob(gateway, id)).status]).toEqual([id, 'done']);
    // the jobs list knows every one of them: none lost
    const listed = (await (await gateway.api(`${TTS_ROOT}/jobs?limit=200`)).json()) as { jobs: { job_id: string }[] };
    expect(listed.jobs.map((j) => j.job_id)).toEqual(expect.arrayContaining(jobs));
    for (const id of jobs.slice(0, 3)) expect((await gateway.api(`${jobPath(id)}/audio`)).status).toBe(200);
  });

  it('POST /preview answers as the schema predicts', async () => {
    await fc.assert(
      fc.asyncProperty(bodies(false), (value) => expectAsPredicted(`${TTS_ROOT}/preview`, PreviewBody, value).then(() => undefined)),
      { numRuns: 60 },
    );
    console.log(`request property, answers seen: ${[...seen].map(([k, n]) => `${k}: ${n}`).join(', ')}`);
  });
});
