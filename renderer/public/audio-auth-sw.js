/*
 * Orator studio: lets <audio> stream job audio with Range requests. A media element cannot send
 * an Authorization header and the key must never go into a URL, so this worker adds the header
 * to same-origin GETs of job audio. It keeps no key: it asks the page for it on every request.
 */
const AUDIO_PATH = /^\/api\/v1\/tts\/jobs\/[^/]+\/audio$/;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

self.addEventListener('fetch', (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== 'GET' || url.origin !== self.location.origin || !AUDIO_PATH.test(url.pathname)) return;
  if (request.headers.has('authorization')) return;
  event.respondWith(withKey(event));
});

async function withKey(event) {
  const key = await keyFrom(event.clientId);
  const headers = new Headers();
  const range = event.request.headers.get('range');
  if (range) headers.set('range', range);
  if (key) headers.set('authorization', `Bearer ${key}`);
  // mode "same-origin": a no-cors request (what media elements send) may not carry Authorization.
  return fetch(event.request.url, { headers, mode: 'same-origin', credentials: 'omit', cache: 'no-store', signal: event.request.signal });
}

async function keyFrom(clientId) {
  const client = clientId ? await self.clients.get(clientId) : undefined;
  const candidates = client ? [client] : await self.clients.matchAll({ type: 'window' });
  for (const candidate of candidates) {
    const key = await ask(candidate);
    if (key) return key;
  }
  return null;
}

function ask(client) {
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    const timer = setTimeout(() => resolve(null), 2000);
    channel.port1.onmessage = (message) => {
      clearTimeout(timer);
      resolve(typeof message.data === 'string' ? message.data : null);
    };
    client.postMessage({ type: 'orator:key-request' }, [channel.port2]);
  });
}
