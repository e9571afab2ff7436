import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { studioPageHeaders } from '../contract';
import { DESKTOP_ORIGIN } from '../gateway/plugins/desktop-origin';

/**
 * The studio's pages come from app://orator/ rather than file://: a file:// page has the origin
 * "null", which the gateway could only allow by allowing every sandboxed page on the web too, and
 * file:// would let a navigation reach any file on the disk. The CSP travels as a response header,
 * the same as the web studio's (contract/security-headers.ts) but for the gateway's origin.
 */
export const APP_SCHEME = 'app';
export const APP_HOST = 'orator';
export const APP_ENTRY = `${DESKTOP_ORIGIN}/index.html`;

/** For protocol.registerSchemesAsPrivileged, before the app is ready. */
export const APP_SCHEME_PRIVILEGES = {
  scheme: APP_SCHEME,
  // standard: real origins and relative URLs; secure: a secure context, like https; corsEnabled:
  // Vite's <script type="module" crossorigin> loads in CORS mode, which Chromium allows only for
  // schemes that take part in CORS.
  privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true, codeCache: true },
};

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.map': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.wasm': 'application/wasm',
  '.txt': 'text/plain; charset=utf-8',
};

export function isAppUrl(url: string): boolean {
  try {
    const parsed = new URL(url);
    return parsed.protocol === `${APP_SCHEME}:` && parsed.host === APP_HOST;
  } catch {
    return false;
  }
}

/** The file an app:// URL names inside the built renderer, or null for anything outside it. */
export function appFile(rendererDir: string, url: string): string | null {
  if (!isAppUrl(url)) return null;
  let pathname: string;
  try {
    pathname = decodeURIComponent(new URL(url).pathname);
  } catch {
    return null;
  }
  if (pathname.includes('\0')) return null;
  const root = path.resolve(rendererDir);
  const file = path.resolve(root, `.${pathname === '/' ? '/index.html' : pathname}`);
  return file.startsWith(root + path.sep) ? file : null;
}

/** The handler for protocol.handle: static files of the renderer with the CSP on every response. */
export function appProtocolHandler(rendererDir: string, gatewayOrigin: string): (request: Request) => Promise<Response> {
  const headers = studioPageHeaders(gatewayOrigin);
  return async (request) => {
    const file = appFile(rendererDir, request.url);
    if (request.method !== 'GET' || !file) return new Response('Not found', { status: 404, headers });
    try {
      const body = await readFile(file);
      const type = TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
      return new Response(body, { status: 200, headers: { ...headers, 'content-type': type } });
    } catch {
      return new Response('Not found', { status: 404, headers });
    }
  };
}
