/**
 * The studio's API client against a real gateway (real engine, real audio), plus the answers a
 * healthy gateway never gives (broken bodies, no network, missing routes) through a fake fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../../../electron/testing/gateway';
import { GatewayError, OratorClient, type JobEvent } from './client';
import { ApiError } from './contract';

let gateway: TestGateway;
let client: OratorClient;
const LONG = 'The keeper climbed the stairs as the storm came in. '.repeat(60); // ~3,100 code points

beforeAll(async () => {
  gateway = await startTestGateway();
  client = new OratorClient({ baseUrl: gateway.url, apiKey: gateway.apiKey });
});
afterAll(() => gateway.stop());

async function riff(blob: Blob) {
  const bytes = Buffer.from(await blob.arrayBuffer());
  return {
    tag: bytes.subarray(0, 4).toString('ascii') + bytes.subarray(8, 12).toString('ascii'),
    rate: bytes.readUInt32LE(24),
    size: bytes.length,
  };
}

describe('OratorClient against the gateway', () => {
  it('lists engines and reads one with its voices', async () => {
    const { engines } = await client.listEngines();
    expect(engines.find((e) => e.id === 'espeak-ng')?.available).toBe(true);
    const detail = await client.engine('espeak-ng');
    expect(detail.voices.some((v) => v.id === 'espeak-ng:en-us')).toBe(true);
  });

  it('gets inline audio (200) for short text and a job (202) for long text', async () => {
    const inline = await client.synthesize({ text: 'Hello from the studio.', voice: 'espeak-ng:en-us' });
    expect(inline.kind).toBe('audio');
    if (inline.kind !== 'audio') return;
    expect(inline.audio.voice).toBe('espeak-ng:en-us');
    expect(inline.audio.durationS).toBeGreaterThan(0.5);
    expect(await riff(inline.audio.blob)).toMatchObject({ tag: 'RIFFWAVE', rate: 22050 });

    const queued = await client.synthesize({ text: LONG });
    expect(queued.kind).toBe('job');
  });

  it('previews a voice with its sample sentence', async () => {
    const audio = await client.preview({ voice: 'espeak-ng:de' });
    expect(audio.durationS).toBeGreaterThan(1);
    expect((await riff(audio.blob)).tag).toBe('RIFFWAVE');
  });

  it('follows a job over events to done, then reads it, its peaks, the list and the audio', async () => {
    const abort = new AbortController();
    const events: JobEvent[] = [];
    let opened!: () => void;
    const open = new Promise<void>((resolve) => (opened = resolve));
    const following = client.followEvents({ signal: abort.signal, onOpen: opened, onEvent: (e) => events.push(e) }).catch(() => undefined);
    await open;
    const result = await client.synthesize({ text: LONG, voice: 'espeak-ng:en-gb' });
    if (result.kind !== 'job') throw new Error('expected a job');
    const id = result.accepted.job_id;
    await expect.poll(() => events.some((e) => e.type === 'done' && e.job.job_id === id), { timeout: 30_000 }).toBe(true);
    abort.abort();
    await following;
    expect(events.filter((e) => e.job.job_id === id && e.type === 'progress').length).toBeGreaterThan(1);
    // each event has its id; a stream resumed after the job's first event starts with where it stands
    const added = events.find((e) => e.job.job_id === id)!;
    expect(added).toMatchObject({ type: 'added', id: String(added.job.revision) });
    const resumed = new AbortController();
    let caughtUp: JobEvent | undefined;
    const onEvent = (event: JobEvent) => {
      if (event.job.job_id !== id) return;
      caughtUp = event;
      resumed.abort();
    };
    await client.followEvents({ signal: resumed.signal, lastEventId: added.id, onEvent }).catch(() => undefined);
    expect(caughtUp).toMatchObject({ type: 'done', job: { status: 'done' } });

    const job = await client.job(id);
    expect(job.status).toBe('done');
    const peaks = await client.peaks(id);
    expect(peaks.duration_s).toBeCloseTo(job.audio!.duration_s, 1);
    expect(peaks.peaks.length).toBeGreaterThan(10);
    expect((await client.listJobs({ limit: 5 })).jobs.map((j) => j.job_id)).toContain(id);
    const wav = await client.jobAudio(id);
    expect(wav.size).toBe(job.audio!.bytes);
    // in another format, encoded as it is sent; the player's URL asks alike
    const ogg = await client.jobAudio(id, undefined, 'ogg');
    expect(ogg.type).toBe('audio/ogg');
    expect(new TextDecoder().decode((await ogg.arrayBuffer()).slice(0, 4))).toBe('OggS');
    expect(client.jobAudioUrl(id, 'wav')).toMatch(new RegExp(`/jobs/${id}/audio\\?format=wav$`));

    // Deleting a finished job removes it.
    expect(await client.deleteJob(id)).toBeNull();
    await expect(client.job(id)).rejects.toMatchObject({ code: 'job_not_found' });
  });

  it('cancels a running job and retries it as a new job', async () => {
    const result = await client.synthesize({ text: LONG.repeat(20), mode: 'job' });
    if (result.kind !== 'job') throw new Error('expected a job');
    const cancelled = await client.deleteJob(result.accepted.job_id);
    expect(cancelled).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    const retried = await client.retryJob(result.accepted.job_id);
    expect(retried.job_id).not.toBe(result.accepted.job_id);
    await client.deleteJob(retried.job_id);
  });

  it('rebuilds API errors with their code', async () => {
    await expect(client.synthesize({ text: 'x', voice: 'espeak-ng:nope' })).rejects.toMatchObject({
      name: 'ApiError',
      code: 'unknown_voice',
    });
    const wrongKey = new OratorClient({ baseUrl: gateway.url, apiKey: 'wrong' });
    const error = await wrongKey.listEngines().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('unauthorized');
  });

  it('sends the key only in the header', async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const spy = new OratorClient({ baseUrl: gateway.url, apiKey: gateway.apiKey }, (input, init) => {
      seen.push({ url: String(input), headers: init?.headers as Record<string, string> });
      return fetch(input, init);
    });
    await spy.listEngines();
    expect(seen[0]!.headers).toEqual({ authorization: `Bearer ${gateway.apiKey}` });
    expect(seen[0]!.url).not.toContain(gateway.apiKey);
  });
});

describe('OratorClient settings writes', () => {
  it('saves settings and regenerates the key with the admin token in the header, never the key', async () => {
    const seen: { url: string; method?: string; headers: Record<string, string> }[] = [];
    const spy = new OratorClient({ baseUrl: gateway.url, apiKey: gateway.apiKey }, (input, init) => {
      seen.push({ url: String(input), method: init?.method, headers: init?.headers as Record<string, string> });
      return fetch(input, init);
    });
    const { adminToken } = gateway;
    const { host: _host, ...settings } = (await spy.settings()).settings;
    await expect(spy.putSettings(settings, gateway.apiKey)).rejects.toMatchObject({ code: 'admin_required' });
    const saved = await spy.putSettings({ ...settings, retention_hours: settings.retention_hours + 1 }, adminToken);
    expect(saved.settings.retention_hours).toBe(settings.retention_hours + 1);
    expect(seen[2]!.headers.authorization).toBe(`Bearer ${adminToken}`);
    await expect(spy.putSettings({ ...settings, max_text_length: 0 }, adminToken)).rejects.toMatchObject({
      name: 'ApiError',
      code: 'invalid_request',
    });

    const oldKey = gateway.apiKey;
    const key = await spy.regenerateApiKey(adminToken);
    expect(key).not.toBe(oldKey);
    await expect(spy.listEngines()).rejects.toMatchObject({ code: 'unauthorized' });
    const renewed = spy.withApiKey(key);
    expect((await renewed.settings()).settings.retention_hours).toBe(settings.retention_hours + 1);
    expect(seen.map((s) => s.method ?? 'GET')).toEqual(['GET', 'PUT', 'PUT', 'PUT', 'POST', 'GET', 'GET']);
    expect(seen.every((s) => s.headers.authorization?.startsWith('Bearer '))).toBe(true);
    client = renewed; // the other tests go on with the live key
  });
});

describe('OratorClient with a misbehaving gateway', () => {
  const fake = (respond: () => Response | Promise<Response>) =>
    new OratorClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }, async () => respond());
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('rejects bodies outside the contract', async () => {
    await expect(fake(() => json({ engines: [{ id: 1 }] })).listEngines()).rejects.toBeInstanceOf(GatewayError);
    await expect(fake(() => new Response('<html>', { status: 200 })).listEngines()).rejects.toBeInstanceOf(GatewayError);
  });

  it('says when the gateway cannot be reached', async () => {
    const error = await fake(() => Promise.reject(new TypeError('fetch failed')))
      .listEngines()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as Error).message).toMatch(/Cannot reach the Orator gateway/);
  });

  it('turns a non-JSON error page into a GatewayError', async () => {
    await expect(fake(() => new Response('Bad gateway', { status: 502 })).job('x')).rejects.toBeInstanceOf(GatewayError);
  });

  it('refuses settings answers outside the contract', async () => {
    await expect(fake(() => json({ settings: {} })).putSettings({} as never, 'token')).rejects.toBeInstanceOf(GatewayError);
    await expect(fake(() => json({ api_key: 42 })).regenerateApiKey('token')).rejects.toBeInstanceOf(GatewayError);
  });

  it('refuses a 200 that is not audio', async () => {
    await expect(fake(() => json({})).preview({})).rejects.toThrow(/did not answer with audio/);
  });
});
