import { withoutTrailingSlashes } from './contract';
import type { Connection } from './client';

/**
 * Streaming job audio: the <audio> element's Range requests need the Bearer header, which the
 * page cannot set on them. In the desktop app the main process adds it
 * (electron/shell/media-auth.ts); in a browser a service worker (public/audio-auth-sw.js) does,
 * which is only possible when the studio is served by the gateway itself (same origin, a secure
 * context such as 127.0.0.1). Elsewhere players fetch the file whole.
 */
const WORKER_URL = './audio-auth-sw.js';
let ready: Promise<boolean> | null = null;

export function enableMediaAuth(getKey: () => string | null): Promise<boolean> {
  ready ??= register(getKey).catch(() => false);
  return ready;
}

/** Whether <audio src="/api/v1/tts/jobs/…/audio"> works in this page. */
export function mediaAuthReady(): Promise<boolean> {
  return ready ?? Promise.resolve(false);
}

/** Whether a job's audio can stream from this connection's gateway into an <audio> element. */
export function canStreamJobAudio(connection: Connection, win: Window = window): Promise<boolean> {
  const desktopGateway = win.orator?.gatewayUrl && withoutTrailingSlashes(win.orator.gatewayUrl);
  if (desktopGateway && connection.baseUrl === desktopGateway) return Promise.resolve(true);
  return connection.baseUrl === '' ? mediaAuthReady() : Promise.resolve(false);
}

async function register(getKey: () => string | null): Promise<boolean> {
  const container = navigator.serviceWorker;
  if (!container || !window.isSecureContext) return false;
  container.addEventListener('message', (event: MessageEvent) => {
    if ((event.data as { type?: string } | null)?.type === 'orator:key-request') event.ports[0]?.postMessage(getKey());
  });
  // Messages from the worker wait in a queue until this is called (addEventListener does not start it).
  container.startMessages();
  await container.register(WORKER_URL, { scope: './' });
  await container.ready;
  if (container.controller) return true;
  // The worker claims open pages when it activates; wait briefly for that.
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(Boolean(container.controller)), 3000);
    container.addEventListener(
      'controllerchange',
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      { once: true },
    );
  });
}
