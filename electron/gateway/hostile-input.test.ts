/**
 * The bad-input matrix: every route of the served OpenAPI document gets every class of hostile
 * request (electron/testing/hostile-requests.ts) and must answer the documented 4xx JSON, or what
 * it answers a clean request where it does not read that input; never a 5xx, a hang or another
 * format. Then the gateway must still synthesize.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { COMPARE_SESSIONS_PATH, jobPath, OPENAI_SPEECH_PATH, TTS_ROOT, type CompareSession } from '../contract';
import { apiRoutes, readsBody, routePath, sampleBody, type ApiRoute } from '../testing/api-routes';
import { expectSpeech } from '../testing/audio';
import { startTestGateway, waitForJob, waitForTakes, type TestGateway } from '../testing/gateway';
import { hostileCases, type HostileCase } from '../testing/hostile-requests';
import { judge, outcomeOf, type Outcome } from '../testing/judge-answer';
import { send, sendBytes, type Answer } from '../testing/raw-http';
import { SPEECH_BODY_LIMIT } from './routes/openai';

/** Its body limit (12 × 60,000 + 64 KiB) holds JSON 100,000 levels deep and is still quick to exceed. */
const MAX_TEXT = 60_000;
const BODY_LIMIT = 12 * MAX_TEXT + 64 * 1024;
/** OpenAI's speech route has its own, for its 4,096 characters. */
const bodyLimitOf = (route: ApiRoute) => (route.template === OPENAI_SPEECH_PATH ? SPEECH_BODY_LIMIT : BODY_LIMIT);
/** Requests in flight at once: the matrix stays a few seconds on two cores. */
const CONCURRENCY = 6;

let gateway: TestGateway;
/** Real ids for path parameters, by the collection before them; DELETE gets an id that does not exist. */
let ids: Record<string, string>;
let routes: ApiRoute[];
/** The create route's schema, for its sample body: a session that later sample bodies leave as it is. */
const compareCreate = { body: { properties: { texts: {}, voices: {} } } } as unknown as ApiRoute;

beforeAll(async () => {
  gateway = await startTestGateway({ maxTextLength: MAX_TEXT });
  const queued = await gateway.post(`${TTS_ROOT}/synthesize`, { text: 'A finished job for the matrix.', mode: 'job' });
  const { job_id } = (await queued.json()) as { job_id: string };
  expect((await waitForJob(gateway, job_id)).status).toBe('done');
  const session = (await (await gateway.post(COMPARE_SESSIONS_PATH, sampleBody(compareCreate))).json()) as CompareSession;
  expect((await gateway.post(`${COMPARE_SESSIONS_PATH}/${session.session_id}/synthesize`, {})).status).toBe(200);
  const take = session.takes[0]!.take_id;
  await waitForTakes(gateway, session.session_id);
  ids = { engines: 'espeak-ng', jobs: job_id, models: 'espeak-ng', sessions: session.session_id, takes: take };
  routes = await apiRoutes(gateway.url);
});
afterAll(() => gateway.stop());

/**
 * Sends with the credential the route takes: the admin token on settings changes, else the current
 * key (POST /settings/api-key replaces it, so a request that raced that is sent again).
 */
async function answer(request: HostileCase['request'], route: ApiRoute): Promise<Answer> {
  for (;;) {
    const key = route.schemes.includes('bearer') ? gateway.apiKey : gateway.adminToken;
    const auth = `Host: 127.0.0.1:${gateway.port}\r\nAuthorization: Bearer ${key}\r\nConnection: close\r\n`;
    const result =
      'bytes' in request
        ? await sendBytes(gateway.port, request.bytes(auth))
        : await send(gateway.port, { ...request, headers: { authorization: `Bearer ${key}`, ...request.headers } });
    if (result.status !== 401 || gateway.apiKey === key || key === gateway.adminToken) return result;
  }
}

function cleanRequest(route: ApiRoute): HostileCase['request'] {
  const path = routePath(route, route.method === 'DELETE' ? {} : ids);
  if (!readsBody(route)) return { method: route.method, path };
  return { method: route.method, path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(sampleBody(route)) };
}

async function inPool<T>(items: T[], run: (item: T) => Promise<void>) {
  const queue = [...items];
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await run(item);
    }),
  );
}

describe('bad-input matrix', () => {
  it('answers every hostile request on every route with the documented 4xx JSON, never a 5xx or a hang', async () => {
    expect(routes.length).toBeGreaterThan(15);
    const work: { route: ApiRoute; clean: Outcome; hostile: HostileCase }[] = [];
    for (const route of routes) {
      const clean = outcomeOf(await answer(cleanRequest(route), route), route.method);
      expect([route.method, route.template, clean.problem]).toEqual([route.method, route.template, undefined]);
      const path = routePath(route, route.method === 'DELETE' ? {} : ids);
      for (const hostile of hostileCases(route, { path, bodyLimit: bodyLimitOf(route) })) work.push({ route, clean, hostile });
    }
    const failures: string[] = [];
    const counts = new Map<string, number>();
    const started = performance.now();
    await inPool(work, async ({ route, clean, hostile }) => {
      counts.set(hostile.class, (counts.get(hostile.class) ?? 0) + 1);
      const where = `${hostile.class} | ${route.method} ${route.template} | ${hostile.name}`;
      try {
        const problem = judge(await answer(hostile.request, route), hostile.expected, clean, route.method);
        if (problem) failures.push(`${where}: ${problem}`);
      } catch (error) {
        failures.push(`${where}: ${(error as Error).message}`);
      }
    });
    console.log(
      `bad-input matrix: ${work.length} requests on ${routes.length} routes in ${Math.round(performance.now() - started)} ms\n` +
        [...counts].map(([klass, n]) => `  ${klass}: ${n}`).join('\n'),
    );
    expect(failures).toEqual([]);
    // query strings like "__proto__[polluted]=1" and bodies with __proto__ reached no prototype
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // it grows with every route: 5,568 requests on 55 routes took 69 s on the shared 2-core machine
    // (load average 10 to 30), past the default 60 s
  }, 180_000);

  it('serves other clients while slow bodies trickle in, and answers each slow body once it is complete', async () => {
    const auth = (route?: ApiRoute) => ({
      authorization: `Bearer ${route && !route.schemes.includes('bearer') ? gateway.adminToken : gateway.apiKey}`,
      'content-type': 'application/json',
    });
    const trickle = { bytes: 2, delayMs: 50 };
    // unterminated JSON, about 1 s in the sending: no route acts on it, so they can all run at once
    const slowMalformed = routes.filter(readsBody).map(async (route) => {
      const path = routePath(route, route.method === 'DELETE' ? {} : ids);
      const reply = await send(gateway.port, {
        method: route.method,
        path,
        headers: auth(route),
        body: `{"text": "${'a'.repeat(38)}`,
        trickle,
      });
      return [route.template, outcomeOf(reply).code];
    });
    const slowSpeech = send(gateway.port, {
      method: 'POST',
      path: `${TTS_ROOT}/synthesize`,
      headers: auth(),
      body: JSON.stringify({ text: 'Slowly, but it arrives.' }),
      trickle,
    });
    const abandoned = Array.from({ length: 10 }, () =>
      send(gateway.port, {
        method: 'POST',
        path: `${TTS_ROOT}/synthesize`,
        headers: auth(),
        body: '{"text":"never finished"}',
        trickle,
        abandonAfter: 10,
      }).then(
        () => 'answered',
        () => 'dropped',
      ),
    );
    const latencies: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      expect((await gateway.api(`${TTS_ROOT}/engines`)).status).toBe(200);
      latencies.push(performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    for (const [template, code] of await Promise.all(slowMalformed)) expect([template, code]).toEqual([template, 'invalid_json']);
    const speech = await slowSpeech;
    expect(speech.status).toBe(200);
    expectSpeech(speech.body, { minSeconds: 0.5 });
    expect(await Promise.all(abandoned)).toEqual(Array(10).fill('dropped'));
    expect(Math.max(...latencies)).toBeLessThan(1000);
  });

  it('still synthesizes afterwards, inline and as a job', async () => {
    const inline = await gateway.post(`${TTS_ROOT}/synthesize`, { text: 'The gateway survived the matrix.' });
    expect(inline.status).toBe(200);
    expectSpeech(Buffer.from(await inline.arrayBuffer()), { minSeconds: 1 });
    const queued = await gateway.post(`${TTS_ROOT}/synthesize`, { text: 'And it still runs jobs.', mode: 'job' });
    const { job_id } = (await queued.json()) as { job_id: string };
    expect((await waitForJob(gateway, job_id)).status).toBe('done');
    expectSpeech(Buffer.from(await (await gateway.api(`${jobPath(job_id)}/audio`)).arrayBuffer()), { minSeconds: 0.5 });
  });
});
