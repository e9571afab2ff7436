/**
 * Compare sessions over HTTP on a real gateway with the embedded eSpeak NG: takes synthesized
 * through the job queue, their audio kept with the session (and the jobs gone), verdicts saved,
 * takes kept or replaced (only when asked) as the session changes, and a session reopened after a
 * restart plays without the engine being asked again.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPARE_LIMITS, COMPARE_SESSIONS_PATH, type CompareSession, type CompareTake } from '../contract';
import { expectSpeech } from '../testing/audio';
import { recordSpoken } from '../testing/engine-calls';
import { startTestGateway, useTestGateways, waitForTakes, type TestGateway } from '../testing/gateway';

const VOICES = ['espeak-ng:en-us', 'espeak-ng:en-gb', 'espeak-ng:de'];
const TEXT = 'The first sentence is short. The second one is a little longer than the first. A third ends it.';

/** For the tests that need a gateway of their own: a restart, the list or the count of every session. */
const gateways = useTestGateways();
/** One gateway for the tests that look only at the sessions they make. */
let shared: TestGateway;
beforeAll(async () => {
  shared = await startTestGateway();
});
afterAll(() => shared.stop());

const send = (gateway: TestGateway, method: string, route: string, body?: unknown) =>
  gateway.api(route, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
const sessionPath = (session: CompareSession) => `${COMPARE_SESSIONS_PATH}/${session.session_id}`;

async function expectError(response: Response, status: number, code: string) {
  expect(response.status).toBe(status);
  expect(((await response.json()) as { error: { code: string } }).error.code).toBe(code);
}

async function create(gateway: TestGateway, body: object): Promise<CompareSession> {
  const response = await send(gateway, 'POST', COMPARE_SESSIONS_PATH, body);
  expect(response.status).toBe(201);
  const session = (await response.json()) as CompareSession;
  expect(response.headers.get('location')).toBe(sessionPath(session));
  return session;
}

/** Synthesizes a session's takes and waits for them: every take ready. */
async function synthesized(gateway: TestGateway, session: CompareSession): Promise<CompareSession> {
  const queued = (await (await send(gateway, 'POST', `${sessionPath(session)}/synthesize`)).json()) as CompareSession;
  expect(queued.takes.every((t) => t.status === 'running' || t.status === 'ready')).toBe(true);
  await waitForTakes(gateway, session.session_id);
  const done = (await (await gateway.api(sessionPath(session))).json()) as CompareSession;
  expect(done.takes.map((t) => t.status)).toEqual(done.takes.map(() => 'ready'));
  return done;
}

async function takeAudio(gateway: TestGateway, session: CompareSession, take: CompareTake): Promise<Buffer> {
  const response = await gateway.api(`${sessionPath(session)}/takes/${take.take_id}/audio`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toBe('audio/wav');
  return Buffer.from(await response.arrayBuffer());
}

describe('compare sessions', () => {
  it('synthesizes every take through the queue and keeps its audio, timings and loudness; the jobs go', async () => {
    const gateway = await gateways.start();
    const session = await create(gateway, { name: 'Narrators', texts: [TEXT], voices: VOICES });
    expect(session.takes.map((t) => [t.voice, t.status])).toEqual(VOICES.map((v) => [v, 'pending']));
    expect(session.order).toEqual(session.takes.map((t) => t.take_id));
    const queued = (await (await send(gateway, 'POST', `${sessionPath(session)}/synthesize`)).json()) as CompareSession;
    const jobIds = queued.takes.map((t) => t.job_id);
    expect(jobIds.every((id) => typeof id === 'string')).toBe(true);

    const done = await synthesized(gateway, session);
    for (const take of done.takes) {
      const seconds = expectSpeech(await takeAudio(gateway, done, take), { minSeconds: 3, maxSeconds: 15 });
      expect(take.duration_s).toBeCloseTo(seconds, 2);
      expect(take.engine).toBe('espeak-ng');
      expect(take.loudness_lufs).toBeLessThan(-5);
      expect(take.timings!.sentences.map((s) => s.text)).toEqual([
        'The first sentence is short.',
        'The second one is a little longer than the first.',
        'A third ends it.',
      ]);
      expect(take.timings!.sentences[1]!.start_s).toBeGreaterThan(0.5);
    }
    for (const id of jobIds) expect((await gateway.api(`/api/v1/tts/jobs/${id}`)).status).toBe(404);
    const list = (await (await gateway.api(COMPARE_SESSIONS_PATH)).json()) as { sessions: { name: string; ready_count: number }[] };
    expect(list.sessions).toMatchObject([{ name: 'Narrators', ready_count: 3 }]);
  });

  it('reopens after a restart with takes and verdicts, without asking the engine again', async () => {
    const first = await gateways.start();
    const session = await synthesized(first, await create(first, { texts: [TEXT, 'Another text.'], voices: VOICES.slice(0, 2) }));
    expect(session.takes).toHaveLength(4);
    const rated = session.takes[2]!;
    const patch = { rating: 4, note: 'Clear, a little fast', sentence_ratings: [5, null, 3] };
    const answer = await send(first, 'PATCH', `${sessionPath(session)}/takes/${rated.take_id}`, patch);
    expect(answer.status).toBe(200);
    await gateways.close(first);

    const second = await gateways.start({ dataDir: first.dataDir });
    // alone or in a batch
    const spoken = recordSpoken(second, VOICES[0]!);
    const reopened = (await (await second.api(sessionPath(session))).json()) as CompareSession;
    expect(reopened.takes.find((t) => t.take_id === rated.take_id)).toMatchObject(patch);
    for (const take of reopened.takes) expectSpeech(await takeAudio(second, reopened, take));
    const again = (await (await send(second, 'POST', `${sessionPath(session)}/synthesize`)).json()) as CompareSession;
    expect(again.takes.every((t) => t.status === 'ready')).toBe(true);
    expect(spoken.texts).toEqual([]);
  });

  it('keeps takes that still apply, and replaces takes only when asked', async () => {
    const gateway = shared;
    const session = await synthesized(gateway, await create(gateway, { texts: [TEXT], voices: VOICES.slice(0, 1) }));
    const kept = session.takes[0]!;
    await send(gateway, 'PATCH', `${sessionPath(session)}/takes/${kept.take_id}`, { rating: 2 });

    const grown = (await (await send(gateway, 'PATCH', sessionPath(session), { voices: VOICES, name: 'Grown' })).json()) as CompareSession;
    expect(grown.name).toBe('Grown');
    expect(grown.takes.map((t) => [t.take_id === kept.take_id, t.status])).toEqual([
      [true, 'ready'],
      [false, 'pending'],
      [false, 'pending'],
    ]);
    expect(grown.takes[0]!.rating).toBe(2);

    await expectError(await send(gateway, 'PATCH', sessionPath(session), { texts: ['New words.'] }), 409, 'takes_would_be_replaced');
    await expectError(await send(gateway, 'PATCH', sessionPath(session), { rate: 1.5 }), 409, 'takes_would_be_replaced');
    const file = `${gateway.dataDir}/compare/${session.session_id}/${kept.take_id}.wav`;
    expect(existsSync(file)).toBe(true);
    const replaced = await send(gateway, 'PATCH', sessionPath(session), { texts: ['New words.'], replace_takes: true });
    const next = (await replaced.json()) as CompareSession;
    expect(next.takes.map((t) => t.status)).toEqual(['pending', 'pending', 'pending']);
    expect(next.takes.some((t) => t.take_id === kept.take_id)).toBe(false);
    expect(existsSync(file)).toBe(false);
  });

  it('shuffles a blind session over all its takes, hides it until revealed, and records pairwise choices', async () => {
    const gateway = shared;
    const session = await create(gateway, { texts: [TEXT, 'Two.'], voices: VOICES, blind: true });
    expect(session.revealed).toBe(false);
    expect([...session.order].sort()).toEqual(session.takes.map((t) => t.take_id).sort());
    const [a, b, c] = session.order as [string, string, string];
    const pairs = [
      { a, b, winner: b },
      { a: b, b: c, winner: b },
    ];
    const patched = (await (await send(gateway, 'PATCH', sessionPath(session), { pairs, revealed: true })).json()) as CompareSession;
    expect(patched).toMatchObject({ pairs, revealed: true, order: session.order });
    for (const bad of [
      { a, b: a, winner: a },
      { a, b, winner: c },
      { a, b: 'nope', winner: a },
    ]) {
      await expectError(await send(gateway, 'PATCH', sessionPath(session), { pairs: [bad] }), 400, 'invalid_request');
    }
  });

  it('duplicates a session with its audio and no verdicts, and deletes one with its files', async () => {
    const gateway = shared;
    const session = await synthesized(gateway, await create(gateway, { name: 'Original', texts: ['Copy me.'], voices: VOICES.slice(1) }));
    await send(gateway, 'PATCH', `${sessionPath(session)}/takes/${session.takes[0]!.take_id}`, { rating: 5, note: 'best' });
    const response = await send(gateway, 'POST', `${sessionPath(session)}/duplicate`, {});
    expect(response.status).toBe(201);
    const copy = (await response.json()) as CompareSession;
    expect(copy.name).toBe('Original (copy)');
    expect(copy.session_id).not.toBe(session.session_id);
    expect(copy.takes.map((t) => [t.status, t.rating, t.note])).toEqual([
      ['ready', null, ''],
      ['ready', null, ''],
    ]);
    for (const take of copy.takes) expectSpeech(await takeAudio(gateway, copy, take));

    expect((await send(gateway, 'DELETE', sessionPath(session))).status).toBe(204);
    await expectError(await gateway.api(sessionPath(session)), 404, 'session_not_found');
    expect(existsSync(`${gateway.dataDir}/compare/${session.session_id}`)).toBe(false);
    expectSpeech(await takeAudio(gateway, copy, copy.takes[0]!));
  });

  it('enforces its limits with clear errors', async () => {
    const gateway = await gateways.start();
    const tooMany = Array.from({ length: COMPARE_LIMITS.voices + 1 }, (_, i) => `espeak-ng:v${i}`);
    await expectError(await send(gateway, 'POST', COMPARE_SESSIONS_PATH, { texts: ['Hi.'], voices: tooMany }), 400, 'invalid_request');
    const long = ['a '.repeat(2_000), 'b '.repeat(600)];
    await expectError(await send(gateway, 'POST', COMPARE_SESSIONS_PATH, { texts: long, voices: VOICES }), 413, 'text_too_long');
    await expectError(
      await send(gateway, 'POST', COMPARE_SESSIONS_PATH, { texts: ['Hi.'], voices: [VOICES[0], VOICES[0]] }),
      400,
      'invalid_request',
    );
    await expectError(
      await send(gateway, 'POST', COMPARE_SESSIONS_PATH, { texts: ['Hi.'], voices: ['espeak-ng:nope'] }),
      422,
      'unknown_voice',
    );
    await expectError(await send(gateway, 'POST', COMPARE_SESSIONS_PATH, { texts: [' \u0001 '], voices: VOICES }), 400, 'invalid_request');

    const session = await create(gateway, { texts: ['Hi.'], voices: VOICES.slice(0, 1) });
    const take = `${sessionPath(session)}/takes/${session.takes[0]!.take_id}`;
    await expectError(await gateway.api(`${take}/audio`), 409, 'take_not_ready');
    await expectError(await send(gateway, 'PATCH', take, { note: 'two\nlines' }), 400, 'invalid_request');
    await expectError(await send(gateway, 'PATCH', take, { rating: 6 }), 400, 'invalid_request');
    await expectError(await send(gateway, 'PATCH', `${sessionPath(session)}/takes/nope`, { rating: 1 }), 404, 'take_not_found');

    for (let i = 1; i < COMPARE_LIMITS.sessions; i++) await create(gateway, { texts: ['Hi.'], voices: VOICES.slice(0, 1) });
    await expectError(await send(gateway, 'POST', COMPARE_SESSIONS_PATH, { texts: ['Hi.'], voices: VOICES }), 409, 'too_many_sessions');
    await expectError(await send(gateway, 'POST', `${sessionPath(session)}/duplicate`, {}), 409, 'too_many_sessions');
  });
});
