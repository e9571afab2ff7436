/**
 * The voice lists: Orator's flat list across engines (GET /api/v1/tts/voices, with the key) and
 * the listings OpenAI-compatible tools read without one (GET /v1/audio/voices and /models).
 * Each tool's own parsing of them is in tool-requests.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_VOICE_NAMES, type EngineDetail, type EngineList, type OpenAIVoiceList, type VoiceList } from '../contract';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { send } from '../testing/raw-http';

let gateway: TestGateway;
let everyVoice: string[];
beforeAll(async () => {
  gateway = await startTestGateway();
  const { engines } = (await (await gateway.api('/api/v1/tts/engines')).json()) as EngineList;
  const details = await Promise.all(
    engines.filter((e) => e.available).map(async (e) => (await (await gateway.api(`/api/v1/tts/engines/${e.id}`)).json()) as EngineDetail),
  );
  everyVoice = details.flatMap((d) => d.voices.map((v) => v.id));
});
afterAll(() => gateway.stop());

const voices = async (query = '') => {
  const response = await gateway.api(`/api/v1/tts/voices${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as VoiceList).voices;
};

describe('GET /api/v1/tts/voices', () => {
  it('lists every voice of every engine in one list, each with its engine and availability', async () => {
    const all = await voices();
    expect(all.map((v) => v.id).sort()).toEqual([...everyVoice].sort());
    expect(all.length).toBeGreaterThan(100);
    expect(all.find((v) => v.id === 'espeak-ng:de')).toMatchObject({ engine: 'espeak-ng', language: 'de', available: true });
  });

  it('filters by language (whole subtags), engine, quality and availability', async () => {
    const german = await voices('?language=de');
    expect(german.length).toBeGreaterThan(0);
    for (const voice of german) expect(voice.language).toMatch(/^de(-|$)/i);
    expect(german.map((v) => v.id)).not.toContain('espeak-ng:en-us');
    const british = (await voices('?language=en-gb')).map((v) => v.language);
    expect(new Set(british.map((l) => l.toLowerCase().slice(0, 5)))).toEqual(new Set(['en-gb']));
    const flite = await voices('?engine=flite');
    expect(new Set(flite.map((v) => v.engine))).toEqual(new Set(['flite']));
    const low = await voices('?quality=low&engine=espeak-ng');
    expect(low.length).toBe((await voices('?engine=espeak-ng')).length);
    expect(await voices('?quality=high&engine=espeak-ng')).toEqual([]);
    expect((await voices('?available=true')).length).toBe(everyVoice.length);
    expect(await voices('?available=false')).toEqual([]); // no worker hosts: every voice speaks here
    expect(await voices('?engine=no-such-engine')).toEqual([]);
  });

  it('refuses a bad filter, and answers no one without the key', async () => {
    const bad = await gateway.api('/api/v1/tts/voices?quality=best');
    expect([bad.status, ((await bad.json()) as { error: { code: string } }).error.code]).toEqual([400, 'invalid_request']);
    expect((await fetch(`${gateway.url}/api/v1/tts/voices`)).status).toBe(401);
  });
});

describe('GET /v1/audio/voices and /v1/audio/models, read without a key', () => {
  const listed = async (query = '', headers: Record<string, string> = {}) => {
    const response = await fetch(`${gateway.url}/v1/audio/voices${query}`, { headers });
    expect(response.status).toBe(200);
    const body = (await response.json()) as OpenAIVoiceList;
    expect(body.data).toEqual(body.voices);
    return body.voices;
  };

  it('lists OpenAI’s names first, with the voices they speak with, then every voice, the most natural first', async () => {
    const all = await listed();
    expect(all.slice(0, OPENAI_VOICE_NAMES.length).map((v) => v.id)).toEqual([...OPENAI_VOICE_NAMES]);
    expect(all[0]).toMatchObject({ id: 'alloy', language: 'en-US', quality: 'low' });
    expect(all[0]!.name).toBe('alloy · English (America) · eSpeak NG (embedded)');
    const plain = all.slice(OPENAI_VOICE_NAMES.length);
    expect(plain.map((v) => v.id).sort()).toEqual([...everyVoice].sort());
    const ranks = plain.map((v) => ({ high: 0, medium: 1, low: 2 })[v.quality ?? 'low'] ?? 3);
    expect(ranks).toEqual([...ranks].sort((a, b) => a - b));
    // a key sent is no trouble, a wrong one neither: the list is public
    expect(await listed('', { authorization: `Bearer ${gateway.apiKey}` })).toEqual(all);
    expect(await listed('', { authorization: 'Bearer wrong' })).toEqual(all);
  });

  it('pages with limit and offset, and lists one engine’s voices for its model', async () => {
    const all = await listed();
    expect(await listed('?limit=100')).toEqual(all.slice(0, 100));
    expect(await listed('?limit=50&offset=50')).toEqual(all.slice(50, 100));
    expect(await listed(`?offset=${all.length}`)).toEqual([]);
    expect(await listed('?model=tts-1')).toEqual(all);
    const flite = await listed('?model=flite');
    expect(flite.length).toBeGreaterThan(0);
    for (const voice of flite) expect(voice.id).toMatch(/^flite:/);
  });

  it('answers a bad query or an unknown model in OpenAI’s shape', async () => {
    const zero = await fetch(`${gateway.url}/v1/audio/voices?limit=0`);
    expect(zero.status).toBe(400);
    expect(((await zero.json()) as { error: object }).error).toMatchObject({ type: 'invalid_request_error', param: 'limit' });
    const unknown = await fetch(`${gateway.url}/v1/audio/voices?model=tts-9`);
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { error: object }).error).toMatchObject({ code: 'model_not_found', param: 'model' });
  });

  it('lists the models as {"models":[{"id","name"}]}', async () => {
    const response = await fetch(`${gateway.url}/v1/audio/models`);
    const { models } = (await response.json()) as { models: { id: string; name: string }[] };
    expect(models.slice(0, 3)).toEqual([
      { id: 'tts-1', name: 'tts-1' },
      { id: 'tts-1-hd', name: 'tts-1-hd' },
      { id: 'gpt-4o-mini-tts', name: 'gpt-4o-mini-tts' },
    ]);
    expect(models).toContainEqual({ id: 'espeak-ng', name: 'eSpeak NG (embedded)' });
  });

  it('still refuses a foreign Host header', async () => {
    for (const path of ['/v1/audio/voices', '/v1/audio/models']) {
      const answer = await send(gateway.port, { method: 'GET', path, headers: { host: 'evil.example' } });
      expect(answer.status).toBe(403);
      expect((JSON.parse(answer.body.toString()) as { error: { code: string } }).error.code).toBe('forbidden_host');
    }
  });
});
