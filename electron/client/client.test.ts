/**
 * The gateway's client (the studio's, the command line's) against a real gateway (real engine, real audio), plus the answers a
 * healthy gateway never gives (broken bodies, no network, missing routes) through a fake fetch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, ApiError } from '../contract';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { GatewayError, OratorClient, type JobEvent } from '.';

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
    const { engines } = await client.call(API.listEngines);
    expect(engines.find((e) => e.id === 'espeak-ng')?.available).toBe(true);
    const detail = await client.call(API.getEngine, { params: { id: 'espeak-ng' } });
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

    const job = await client.call(API.getJob, { params: { id } });
    expect(job.status).toBe('done');
    const peaks = await client.call(API.getJobPeaks, { params: { id } });
    expect(peaks.duration_s).toBeCloseTo(job.audio!.duration_s, 1);
    expect(peaks.peaks.length).toBeGreaterThan(10);
    expect((await client.call(API.listJobs, { query: { limit: 5 } })).jobs.map((j) => j.job_id)).toContain(id);
    const wav = await client.blob(API.getJobAudio, { params: { id } });
    expect(wav.size).toBe(job.audio!.bytes);
    // in another format, encoded as it is sent; the player's URL asks alike
    const ogg = await client.blob(API.getJobAudio, { params: { id }, query: { format: 'ogg' } });
    expect(ogg.type).toBe('audio/ogg');
    expect(new TextDecoder().decode((await ogg.arrayBuffer()).slice(0, 4))).toBe('OggS');
    expect(client.href(API.getJobAudio, { params: { id }, query: { format: 'wav' } })).toMatch(
      new RegExp(`/jobs/${id}/audio\\?format=wav$`),
    );

    // Deleting a finished job removes it.
    expect(await client.call(API.deleteJob, { params: { id } })).toBeNull();
    await expect(client.call(API.getJob, { params: { id } })).rejects.toMatchObject({ code: 'job_not_found' });
  });

  it('cancels a running job and retries it as a new job', async () => {
    const result = await client.synthesize({ text: LONG.repeat(20), mode: 'job' });
    if (result.kind !== 'job') throw new Error('expected a job');
    const cancelled = await client.call(API.deleteJob, { params: { id: result.accepted.job_id } });
    expect(cancelled).toMatchObject({ status: 'failed', error: { code: 'cancelled' } });
    const retried = await client.call(API.retryJob, { params: { id: result.accepted.job_id } });
    expect(retried.job_id).not.toBe(result.accepted.job_id);
    await client.call(API.deleteJob, { params: { id: retried.job_id } });
  });

  it('rebuilds API errors with their code', async () => {
    await expect(client.synthesize({ text: 'x', voice: 'espeak-ng:nope' })).rejects.toMatchObject({
      name: 'ApiError',
      code: 'unknown_voice',
    });
    const wrongKey = new OratorClient({ baseUrl: gateway.url, apiKey: 'wrong' });
    const error = await wrongKey.call(API.listEngines).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('unauthorized');
  });

  it('tells its onUnauthorized hook when the key is refused, not when another credential given for one call is', async () => {
    const refused: OratorClient[] = [];
    const wrongKey = new OratorClient({ baseUrl: gateway.url, apiKey: 'wrong' }, { onUnauthorized: (c) => refused.push(c) });
    await expect(wrongKey.call(API.getJob, { params: { id: 'x' } })).rejects.toMatchObject({ code: 'unauthorized' });
    expect(refused).toEqual([wrongKey]);
    const renewed = wrongKey.withApiKey('still wrong');
    await expect(renewed.call(API.replaceApiKey, { credential: 'not the admin token' })).rejects.toMatchObject({ code: 'unauthorized' });
    expect(refused).toEqual([wrongKey]);
    await expect(renewed.followEvents({ signal: AbortSignal.timeout(5000), onEvent: () => undefined })).rejects.toBeInstanceOf(ApiError);
    expect(refused).toEqual([wrongKey, renewed]);
  });

  it('sends the key only in the header', async () => {
    const seen: { url: string; headers: Record<string, string> }[] = [];
    const spy = new OratorClient(
      { baseUrl: gateway.url, apiKey: gateway.apiKey },
      {
        fetch: (input, init) => {
          seen.push({ url: String(input), headers: init?.headers as Record<string, string> });
          return fetch(input, init);
        },
      },
    );
    await spy.call(API.listEngines);
    expect(seen[0]!.headers).toEqual({ authorization: `Bearer ${gateway.apiKey}` });
    expect(seen[0]!.url).not.toContain(gateway.apiKey);
  });
});

describe('OratorClient settings writes', () => {
  it('saves settings and regenerates the key with the admin token in the header, never the key', async () => {
    const seen: { url: string; method?: string; headers: Record<string, string> }[] = [];
    const spy = new OratorClient(
      { baseUrl: gateway.url, apiKey: gateway.apiKey },
      {
        fetch: (input, init) => {
          seen.push({ url: String(input), method: init?.method, headers: init?.headers as Record<string, string> });
          return fetch(input, init);
        },
      },
    );
    const { adminToken } = gateway;
    const { host: _host, ...settings } = (await spy.call(API.getSettings)).settings;
    await expect(spy.call(API.putSettings, { body: settings, credential: gateway.apiKey })).rejects.toMatchObject({
      code: 'admin_required',
    });
    const saved = await spy.call(API.putSettings, {
      body: { ...settings, retention_hours: settings.retention_hours + 1 },
      credential: adminToken,
    });
    expect(saved.settings.retention_hours).toBe(settings.retention_hours + 1);
    expect(seen[2]!.headers.authorization).toBe(`Bearer ${adminToken}`);
    await expect(spy.call(API.putSettings, { body: { ...settings, max_text_length: 0 }, credential: adminToken })).rejects.toMatchObject({
      name: 'ApiError',
      code: 'invalid_request',
    });

    const oldKey = gateway.apiKey;
    const key = (await spy.call(API.replaceApiKey, { credential: adminToken })).api_key;
    expect(key).not.toBe(oldKey);
    await expect(spy.call(API.listEngines)).rejects.toMatchObject({ code: 'unauthorized' });
    const renewed = spy.withApiKey(key);
    expect((await renewed.call(API.getSettings)).settings.retention_hours).toBe(settings.retention_hours + 1);
    expect(seen.map((s) => s.method ?? 'GET')).toEqual(['GET', 'PUT', 'PUT', 'PUT', 'POST', 'GET', 'GET']);
    expect(seen.every((s) => s.headers.authorization?.startsWith('Bearer '))).toBe(true);
    client = renewed; // the other tests go on with the live key
  });
});

describe('OratorClient with a misbehaving gateway', () => {
  const fake = (respond: () => Response | Promise<Response>) =>
    new OratorClient({ baseUrl: 'http://127.0.0.1:9', apiKey: 'k' }, { fetch: async () => respond() });
  const json = (body: unknown, status = 200) =>
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

  it('rejects bodies outside the contract', async () => {
    await expect(fake(() => json({ engines: [{ id: 1 }] })).call(API.listEngines)).rejects.toBeInstanceOf(GatewayError);
    await expect(fake(() => new Response('<html>', { status: 200 })).call(API.listEngines)).rejects.toBeInstanceOf(GatewayError);
  });

  it('says when the gateway cannot be reached', async () => {
    const error = await fake(() => Promise.reject(new TypeError('fetch failed')))
      .call(API.listEngines)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as Error).message).toMatch(/Cannot reach the Orator gateway/);
  });

  it('turns a non-JSON error page into a GatewayError', async () => {
    await expect(fake(() => new Response('Bad gateway', { status: 502 })).call(API.getJob, { params: { id: 'x' } })).rejects.toBeInstanceOf(
      GatewayError,
    );
  });

  it('refuses a status the route does not declare', async () => {
    await expect(fake(() => json({ job_id: 'x' }, 202)).call(API.getJob, { params: { id: 'x' } })).rejects.toThrow(
      /answered getJob with 202/,
    );
  });

  it('refuses settings answers outside the contract', async () => {
    await expect(
      fake(() => json({ settings: {} })).call(API.putSettings, { body: {} as never, credential: 'token' }),
    ).rejects.toBeInstanceOf(GatewayError);
    await expect(fake(() => json({ api_key: 42 })).call(API.replaceApiKey, { credential: 'token' })).rejects.toBeInstanceOf(GatewayError);
  });

  it('refuses a 200 that is not audio', async () => {
    await expect(fake(() => json({})).preview({})).rejects.toThrow(/did not answer with audio/);
  });
});
