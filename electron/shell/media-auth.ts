import type { BeforeSendResponse, OnBeforeSendHeadersListenerDetails, Session } from 'electron';
import { JOBS_PATH } from '../contract/routes';
import { isAppUrl } from './app-protocol';

/** A finished job's audio: what the studio's <audio> element streams with Range requests. */
const JOB_AUDIO = new RegExp(`^${JOBS_PATH.replace(/\//g, '\\/')}\\/[^/]+\\/audio$`);

/** Electron's URL patterns for a gateway origin; the listener checks each URL again itself. */
export function jobAudioPatterns(gatewayOrigin: string): string[] {
  return [`${gatewayOrigin}${JOBS_PATH}/*/audio`];
}

/** Whether a request may carry the key that main adds: the gateway's job audio, asked by the studio. */
export function wantsGatewayKey(
  details: Pick<OnBeforeSendHeadersListenerDetails, 'url' | 'method' | 'frame' | 'webContents'>,
  gatewayOrigin: string,
): boolean {
  let url: URL;
  try {
    url = new URL(details.url);
  } catch {
    return false;
  }
  if (url.origin !== gatewayOrigin || !JOB_AUDIO.test(url.pathname) || url.username || url.password) return false;
  if (details.method !== 'GET' && details.method !== 'HEAD') return false;
  // The studio is the only page this session shows; anything else that gets here gets no key.
  const page = details.frame?.url ?? details.webContents?.getURL();
  return page === undefined || isAppUrl(page);
}

/**
 * Lets the studio stream job audio: an <audio> element cannot send the Authorization header, so
 * main adds it to the element's requests for the gateway's job audio, and to nothing else. The key
 * is read at each request, so a regenerated key applies at once.
 */
export function authorizeJobAudio(session: Pick<Session, 'webRequest'>, gatewayOrigin: string, apiKey: () => string): void {
  session.webRequest.onBeforeSendHeaders(
    { urls: jobAudioPatterns(gatewayOrigin) },
    (details, callback: (response: BeforeSendResponse) => void) => {
      if (!wantsGatewayKey(details, gatewayOrigin)) return callback({});
      const requestHeaders = Object.fromEntries(
        Object.entries(details.requestHeaders).filter(([name]) => name.toLowerCase() !== 'authorization'),
      );
      callback({ requestHeaders: { ...requestHeaders, Authorization: `Bearer ${apiKey()}` } });
    },
  );
}
