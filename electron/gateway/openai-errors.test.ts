/**
 * The OpenAI dialect's model list and errors, through the official `openai` package where it can
 * send the request, and raw HTTP where it cannot (no body, wrong method). The gateway serves the
 * studio, as `npm run serve` and the desktop app do: its catch-all takes every GET no route has.
 */
import OpenAI from 'openai';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_MODELS } from '../contract';
import { prose } from '../testing/prose';
import { send } from '../testing/raw-http';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { SLOT_LIMITS } from './slots';

const MAX_SPEECH_STREAMS = SLOT_LIMITS.encoders.perKey;

let gateway: TestGateway;
let client: OpenAI;
beforeAll(async () => {
  gateway = await startTestGateway({ staticDir: path.resolve('dist/renderer') });
  client = new OpenAI({ apiKey: gateway.apiKey, baseURL: `${gateway.url}/v1`, maxRetries: 0 });
});
afterAll(() => gateway.stop());

const speech = { model: 'tts-1', voice: 'alloy', input: 'Hello.' };

/** The SDK's error for a request, with OpenAI's fields. */
async function failure(request: Promise<unknown>): Promise<InstanceType<typeof OpenAI.APIError>> {
  const error = await request.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(OpenAI.APIError);
  return error as InstanceType<typeof OpenAI.APIError>;
}

describe('GET /v1/models', () => {
  it('lists OpenAI’s speech models and one model per available engine', async () => {
    const models = [];
    for await (const model of client.models.list()) models.push(model);
    const ids = models.map((m) => m.id);
    expect(ids.slice(0, OPENAI_MODELS.length)).toEqual([...OPENAI_MODELS]);
    expect(ids).toContain('espeak-ng');
    expect(ids).toContain('flite');
    expect(ids).not.toContain('macos-say'); // not on this machine
    for (const model of models) expect(model).toEqual({ id: model.id, object: 'model', created: expect.any(Number), owned_by: 'orator' });
    expect(await client.models.retrieve('espeak-ng')).toMatchObject({ id: 'espeak-ng', object: 'model' });
  });

  it('answers an unknown model 404 model_not_found', async () => {
    const error = await failure(client.models.retrieve('nope'));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.code).toBe('model_not_found');
  });
});

describe('the OpenAPI document', () => {
  it('lists the /v1 routes under their tag, with the TTS key and every content type of speech', async () => {
    const doc = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { tags?: string[]; security?: unknown; responses: Record<string, { content?: object }> }>>;
    };
    const speechOp = doc.paths['/v1/audio/speech']!.post!;
    expect(speechOp.tags).toEqual(['OpenAI-compatible']);
    expect(speechOp.security).toBeUndefined(); // the document's default: the TTS key
    expect(Object.keys(speechOp.responses['200']!.content!).sort()).toEqual(
      ['audio/aac', 'audio/flac', 'audio/mpeg', 'audio/ogg', 'audio/pcm', 'audio/wav', 'text/event-stream'].sort(),
    );
    expect(doc.paths['/v1/models']!.get!.tags).toEqual(['OpenAI-compatible']);
    expect(doc.paths['/v1/models/{model}']!.get!.tags).toEqual(['OpenAI-compatible']);
  });
});

describe('errors in OpenAI’s shape', () => {
  it('401 for a missing or wrong key, with the scheme to use', async () => {
    const wrong = new OpenAI({ apiKey: 'not-the-key', baseURL: `${gateway.url}/v1`, maxRetries: 0 });
    const error = await failure(wrong.audio.speech.create(speech));
    expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
    expect(error.error).toEqual({ message: 'The API key is wrong.', type: 'invalid_request_error', param: null, code: 'invalid_api_key' });
    const none = await fetch(`${gateway.url}/v1/models`);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Bearer realm="orator"');
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('invalid_api_key');
  });

  it('401 to every wrong way of presenting the key, 403 to a foreign Host, on every /v1 route', async () => {
    const key = gateway.apiKey;
    const wrongWays: Record<string, string>[] = [
      {},
      { authorization: 'Bearer wrong-key' },
      { authorization: `Bearer ${key}x` },
      { authorization: key },
      { authorization: `Basic ${Buffer.from(`orator:${key}`).toString('base64')}` },
      { 'x-api-key': key, 'api-key': key },
      { cookie: `key=${key}` },
    ];
    const routes = [
      { method: 'GET', path: '/v1/models' },
      { method: 'GET', path: '/v1/models/espeak-ng' },
      { method: 'POST', path: '/v1/audio/speech', body: JSON.stringify(speech) },
      { method: 'POST', path: `/v1/audio/speech?api_key=${key}`, body: JSON.stringify(speech) },
      { method: 'GET', path: '/v1/no-such-route' },
      { method: 'POST', path: '/v1/no-such-route', body: '{}' },
    ];
    const failures: string[] = [];
    for (const route of routes) {
      for (const headers of wrongWays) {
        const answer = await send(gateway.port, { ...route, headers: { 'content-type': 'application/json', ...headers } });
        const body = JSON.parse(answer.body.toString()) as { error: Record<string, unknown> };
        if (answer.status !== 401 || body.error.code !== 'invalid_api_key' || body.error.type !== 'invalid_request_error') {
          failures.push(`${route.method} ${route.path} ${JSON.stringify(headers)}: ${answer.status} ${answer.body.toString()}`);
        }
      }
      const foreign = await send(gateway.port, { ...route, headers: { host: 'evil.example', authorization: `Bearer ${key}` } });
      if (foreign.status !== 403) failures.push(`${route.method} ${route.path} from evil.example: ${foreign.status}`);
    }
    expect(failures).toEqual([]);
  });

  it.each([
    ['an input over 4,096 characters', { input: 'a'.repeat(4097) }, 'input', 'string_above_max_length'],
    ['an input of only spaces', { input: ' \n\t ' }, 'input', 'invalid_request'],
    ['a missing input', { input: undefined }, 'input', 'invalid_request'],
    ['an unknown voice', { voice: 'nobody' }, 'voice', 'invalid_value'],
    ['a voice of another engine than the model', { model: 'flite', voice: 'espeak-ng:en-us' }, 'voice', 'invalid_value'],
    ['an unknown response_format', { response_format: 'ogg' }, 'response_format', 'invalid_request'],
    ['a speed out of range', { speed: 4.5 }, 'speed', 'invalid_request'],
    ['an unknown stream_format', { stream_format: 'ws' }, 'stream_format', 'invalid_request'],
    ['a speed written as text out of range', { speed: '4.5' }, 'speed', 'invalid_request'],
  ])('400 for %s, naming the parameter', async (_what, change, param, code) => {
    const error = await failure(client.audio.speech.create({ ...speech, ...change } as OpenAI.Audio.SpeechCreateParams));
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error.error).toMatchObject({ type: 'invalid_request_error', param, code, message: expect.any(String) });
  });

  it('400 for a body that is not JSON, or none', async () => {
    const post = (body: string | undefined, type?: string) =>
      gateway.api('/v1/audio/speech', {
        method: 'POST',
        ...(type ? { headers: { 'content-type': type } } : {}),
        ...(body ? { body } : {}),
      });
    for (const [response, code] of [
      [await post('{"model":', 'application/json'), 'invalid_json'],
      [await post('model=tts-1', 'application/x-www-form-urlencoded'), 'unsupported_media_type'],
      [await post(undefined), 'unsupported_media_type'],
    ] as const) {
      expect(response.status).toBe(400);
      expect(await response.json()).toEqual({ error: { message: expect.any(String), type: 'invalid_request_error', param: null, code } });
    }
  });

  it('404 for an unknown model, and for a URL that is no route', async () => {
    const error = await failure(client.audio.speech.create({ ...speech, model: 'tts-2' }));
    expect(error).toBeInstanceOf(OpenAI.NotFoundError);
    expect(error.error).toMatchObject({ param: 'model', code: 'model_not_found' });
    for (const [method, route] of [
      ['GET', '/v1/audio/speech'],
      ['POST', '/v1/chat/completions'],
      ['GET', '/v1/chat/completions'],
      ['HEAD', '/v1/no-such-route'],
      ['DELETE', '/v1'],
    ]) {
      const response = await gateway.api(route!, { method: method! });
      expect(response.status).toBe(404);
      if (method === 'HEAD') continue;
      expect(await response.json()).toEqual({
        error: { message: `Invalid URL (${method} ${route})`, type: 'invalid_request_error', param: null, code: null },
      });
    }
  });

  it(`429 with Retry-After past ${MAX_SPEECH_STREAMS} speech answers in flight for one key`, async () => {
    const held = new AbortController();
    // long answers, left unread: each stays in flight, held back by the unread socket
    const open = await Promise.all(
      Array.from({ length: MAX_SPEECH_STREAMS }, () =>
        client.audio.speech.create({ ...speech, input: prose(4000), response_format: 'wav' }, { signal: held.signal }),
      ),
    );
    try {
      const error = await failure(client.audio.speech.create(speech));
      expect(error).toBeInstanceOf(OpenAI.RateLimitError);
      expect(error.error).toMatchObject({ type: 'requests', code: 'rate_limit_exceeded' });
      expect(error.headers?.get('retry-after')).toBe('1');
    } finally {
      held.abort();
      await Promise.all(open.map((response) => response.body?.cancel().catch(() => undefined)));
    }
    // the slots are given back when the answers end
    await expect.poll(async () => (await gateway.post('/v1/audio/speech', speech)).status, { timeout: 5000 }).toBe(200);
  });

  it('500 server_error when the engine fails; an error event once an event stream has begun', async () => {
    const adapter = gateway.registry.resolve({ voice: 'espeak-ng:en-us' }).adapter;
    const original = adapter.synthesize.bind(adapter);
    let calls = 0;
    adapter.synthesize = async (request, context) => {
      calls++;
      if (calls === 1 || calls === 3) throw new Error('the engine broke');
      return original(request, context);
    };
    try {
      const error = await failure(client.audio.speech.create(speech));
      expect(error).toBeInstanceOf(OpenAI.InternalServerError);
      expect(error.status).toBe(500);
      expect(error.error).toMatchObject({ type: 'server_error', param: null, code: 'engine_error' });

      const response = await client.audio.speech.create({ ...speech, input: prose(2000), stream_format: 'sse' });
      expect(response.status).toBe(200);
      const events = (await response.text()).split('\n\n').filter(Boolean);
      expect(events.at(-1)).toMatch(/^event: error\ndata: /);
      const last = JSON.parse(events.at(-1)!.split('data: ')[1]!) as { type: string; error: Record<string, unknown> };
      expect(last).toMatchObject({ type: 'error', error: { type: 'server_error', code: 'engine_error' } });
      expect(events.slice(0, -1).every((e) => e.startsWith('event: speech.audio.delta'))).toBe(true);
    } finally {
      adapter.synthesize = original;
    }
  });

  it('keeps Orator’s own error shape on /api/v1/tts', async () => {
    const response = await gateway.post('/api/v1/tts/synthesize', { text: 'Hello.', voice: 'nobody' });
    expect(response.status).toBe(422);
    expect(await response.json()).toEqual({ error: { code: 'unknown_voice', message: expect.any(String) } });
  });
});
