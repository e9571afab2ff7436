/**
 * The studio's service worker (public/audio-auth-sw.js), the real file, run in a VM context with
 * a stand-in for its global scope: browsers run it only in a page served by the gateway (e2e).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';

const ORIGIN = 'http://127.0.0.1:5700';
const AUDIO = `${ORIGIN}/api/v1/tts/jobs/2f1c/audio`;
const SOURCE = readFileSync(path.resolve('renderer/public/audio-auth-sw.js'), 'utf8');

interface Client {
  id: string;
  type: string;
  frameType: string;
  postMessage(message: unknown, ports: MessagePort[]): void;
}

/** A window client of the studio that answers the worker's key request. */
const studioPage = (id: string, frameType = 'top-level'): Client => ({
  id,
  type: 'window',
  frameType,
  postMessage: (_message, [port]) => port!.postMessage('the-key'),
});

function loadWorker(clients: Client[]) {
  const listeners = new Map<string, (event: unknown) => void>();
  const fetched: { url: string; headers: Headers }[] = [];
  const scope = {
    location: { origin: ORIGIN },
    addEventListener: (type: string, listener: (event: unknown) => void) => listeners.set(type, listener),
    clients: {
      get: async (id: string) => clients.find((c) => c.id === id),
      matchAll: async () => clients,
    },
  };
  const context = vm.createContext({
    self: scope,
    URL,
    Headers,
    MessageChannel,
    setTimeout,
    clearTimeout,
    fetch: async (url: string, init: { headers: Headers }) => {
      fetched.push({ url, headers: init.headers });
      return new Response('audio');
    },
  });
  vm.runInContext(SOURCE, context);
  const addsKey = context.addsKey as (request: unknown, clientId: string, origin: string) => boolean;
  /** Dispatches a fetch event; resolves with the headers the worker fetched with, or null if it left the request alone. */
  const dispatch = async (request: FakeRequest, clientId: string): Promise<Headers | null> => {
    let answer: Promise<Response> | undefined;
    listeners.get('fetch')!({ request, clientId, respondWith: (response: Promise<Response>) => (answer = response) });
    if (!answer) return null;
    await answer;
    return fetched.at(-1)!.headers;
  };
  return { addsKey, dispatch };
}

interface FakeRequest {
  url: string;
  method: string;
  mode: string;
  headers: Headers;
  signal?: AbortSignal;
}
// Request objects with mode "navigate" cannot be constructed outside a browser; these carry what the worker reads.
const request = (url: string, init: Partial<Omit<FakeRequest, 'url'>> = {}): FakeRequest => ({
  url,
  method: 'GET',
  mode: 'no-cors',
  headers: new Headers(),
  ...init,
});

describe('the audio service worker', () => {
  it("adds the key to the studio page's own audio requests, asking that page", async () => {
    const worker = loadWorker([studioPage('studio')]);
    expect(worker.addsKey(request(AUDIO), 'studio', ORIGIN)).toBe(true);
    const headers = await worker.dispatch(request(AUDIO, { headers: new Headers({ range: 'bytes=0-' }) }), 'studio');
    expect(headers?.get('authorization')).toBe('Bearer the-key');
    expect(headers?.get('range')).toBe('bytes=0-');
  });

  it('never adds it to a navigation, whoever started it, even while a studio page is open', async () => {
    const worker = loadWorker([studioPage('studio')]);
    // a link or redirect from any site opening job audio in a tab: no client, mode "navigate"
    expect(worker.addsKey(request(AUDIO, { mode: 'navigate' }), '', ORIGIN)).toBe(false);
    expect(worker.addsKey(request(AUDIO, { mode: 'navigate' }), 'studio', ORIGIN)).toBe(false);
    expect(await worker.dispatch(request(AUDIO, { mode: 'navigate' }), '')).toBeNull();
  });

  it('never adds it to a request without a client', async () => {
    const worker = loadWorker([studioPage('studio')]);
    expect(worker.addsKey(request(AUDIO), '', ORIGIN)).toBe(false);
    expect(await worker.dispatch(request(AUDIO), '')).toBeNull();
  });

  it('leaves alone other origins, other paths, other methods and requests that carry a key', () => {
    const { addsKey } = loadWorker([studioPage('studio')]);
    expect(addsKey(request('http://evil.example/api/v1/tts/jobs/2f1c/audio'), 'studio', ORIGIN)).toBe(false);
    expect(addsKey(request(`${ORIGIN}/api/v1/tts/jobs/2f1c`), 'studio', ORIGIN)).toBe(false);
    expect(addsKey(request(`${ORIGIN}/api/v1/tts/jobs/2f1c/peaks`), 'studio', ORIGIN)).toBe(false);
    expect(addsKey(request(AUDIO, { method: 'DELETE' }), 'studio', ORIGIN)).toBe(false);
    expect(addsKey(request(AUDIO, { headers: new Headers({ authorization: 'Bearer other' }) }), 'studio', ORIGIN)).toBe(false);
  });

  it('asks only the top-level window that made the request, never another page or a frame', async () => {
    const framed = loadWorker([studioPage('framed', 'nested'), studioPage('studio')]);
    expect((await framed.dispatch(request(AUDIO), 'framed'))?.get('authorization')).toBeNull();
    const gone = loadWorker([studioPage('studio')]);
    expect((await gone.dispatch(request(AUDIO), 'closed-tab'))?.get('authorization')).toBeNull();
  });
});
