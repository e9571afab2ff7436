import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, OPENAI_ROOT, TTS_ROOT } from '../../contract';
import { keysMatch } from '../api-key';
import { PLUGIN } from './names';

/** The route the router matched: none for a 404 or the static catch-all. */
function matchedRoute(request: FastifyRequest): string | undefined {
  const route = request.routeOptions.url;
  return route && !route.endsWith('*') ? route : undefined;
}

/**
 * Whether a request is for the API. Decided on the route the router matched, never on the raw
 * URL: "/%61pi/v1/tts/…" reaches the same route as "/api/v1/tts/…". Requests that match no API
 * route (404s, the static catch-all) are judged on their decoded path.
 */
function isApiRequest(request: FastifyRequest): boolean {
  const path = matchedRoute(request) ?? decodedPath(request.url);
  return API_ROOTS.some((root) => path === root || path.startsWith(`${root}/`));
}

/** Orator's API and the OpenAI-compatible dialect: the same key guards both. */
const API_ROOTS = [TTS_ROOT, OPENAI_ROOT];

function decodedPath(url: string): string {
  const path = url.split('?')[0]!;
  try {
    return decodeURIComponent(path).replace(/\/{2,}/g, '/');
  } catch {
    return path;
  }
}

export function presentedKey(request: FastifyRequest): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')?.[1];
}

/** Whether a request carries the current key (for long-lived answers, asked again later). */
export function hasKey(request: FastifyRequest, apiKey: () => string): boolean {
  const key = presentedKey(request);
  return key !== undefined && keysMatch(key, apiKey());
}

/** OpenAPI security schemes: the TTS key (every API route unless it says otherwise) and the admin token. */
export const SECURITY_SCHEMES = {
  bearer: { type: 'http', scheme: 'bearer', description: 'The TTS key: <data-dir>/api-key' },
  admin: { type: 'http', scheme: 'bearer', description: 'The admin token: <data-dir>/admin-token. Changes settings; speaks nothing' },
} as const;
type Scheme = keyof typeof SECURITY_SCHEMES;

/** Route option `security` of the routes only the admin token opens. */
export const ADMIN_ONLY = [{ admin: [] }];

/**
 * The credentials a route accepts, from its OpenAPI `security` (so the document and the check
 * agree): `[]` is public (whoami), none given is the TTS key. A path no route matches takes either
 * credential: it is answered 404 whatever is sent, so an admin tool with a mistyped id learns that
 * the id is wrong, not that its token is.
 */
function acceptedSchemes(request: FastifyRequest): Scheme[] {
  if (matchedRoute(request) === undefined) return ['bearer', 'admin'];
  const security = (request.routeOptions.schema as { security?: Record<string, unknown>[] } | undefined)?.security;
  if (!Array.isArray(security)) return ['bearer'];
  return security.flatMap((requirement) => Object.keys(requirement) as Scheme[]);
}

export interface Credentials {
  apiKey(): string;
  adminToken(): string;
}

function presentedScheme(request: FastifyRequest, credentials: Credentials): Scheme | undefined {
  const key = presentedKey(request);
  if (key === undefined) return undefined;
  if (keysMatch(key, credentials.apiKey())) return 'bearer';
  if (keysMatch(key, credentials.adminToken())) return 'admin';
  return undefined;
}

/**
 * Every /api/v1/tts route needs "Authorization: Bearer <credential>": the TTS key, or for the
 * routes that change what runs, the admin token. Neither opens the other's routes: a TTS key holder
 * (every local tool, the studio page) cannot change settings, and the admin token speaks nothing.
 */
export const auth = fp<Credentials>(
  async (app, credentials) => {
    app.addHook('onRequest', async (request) => {
      if (!isApiRequest(request)) return;
      const accepted = acceptedSchemes(request);
      if (accepted.length === 0) return;
      const presented = presentedScheme(request, credentials);
      if (presented && accepted.includes(presented)) return;
      if (presented === 'bearer') {
        throw new ApiError('admin_required', 'This needs the admin token (the file admin-token in the data folder), not the API key.');
      }
      if (presented === 'admin') throw new ApiError('unauthorized', 'The admin token changes settings only; send the API key.');
      throw new ApiError(
        'unauthorized',
        presentedKey(request) ? 'The API key is wrong.' : 'Send the API key as "Authorization: Bearer <key>".',
      );
    });
  },
  { name: PLUGIN.auth, dependencies: [PLUGIN.hostCheck, PLUGIN.desktopOrigin] },
);
