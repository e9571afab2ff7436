/*
 * Orator studio: lets <audio> stream job audio with Range requests. A media element cannot send
 * an Authorization header and the key must never go into a URL, so this worker adds the header
 * to same-origin GETs of job audio made by a studio page. It keeps no key: it asks that page for
 * it on every request.
 */
const AUDIO_PATH = /^\/api\/v1\/tts\/jobs\/[^/]+\/audio$/;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(self.clients.claim()));

/**
 * Whether a request gets the key. Never a navigation: any web site can open job audio in a tab
 * (a link, a redirect), and that tab is not the studio. Never a request without a client (the
 * page that made it), which is what navigations and some browser-internal fetches look like.
 */
function addsKey(request, clientId, origin) {
  if (request.mode === 'navigate' || !clientId) return false;
  if (request.method !== 'GET' || request.headers.has('authorization')) return false;
  const url = new URL(request.url);
  return url.origin === origin && AUDIO_PATH.test(url.pathname);
}

self.addEventListener('fetch', (event) => {
  if (addsKey(event.request, event.clientId, self.location.origin)) event.respondWith(withKey(event));
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

/** Only the studio window that made the request is asked: never another page or a frame. */
async function keyFrom(clientId) {
  const client = await self.clients.get(clientId);
  if (!client || client.type !== 'window' || client.frameType !== 'top-level') return null;
  return ask(client);
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
