import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, OPENAI_ROOT, TTS_ROOT, type Auth } from '../../contract';
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

/** The credentials a gateway knows; the worker token only with worker hosts (the Redis queue). */
type Credential = 'key' | 'admin' | 'worker';

const ACCEPTED: Record<Auth, Credential[]> = {
  key: ['key'],
  admin: ['admin'],
  'key-or-admin': ['key', 'admin'],
  none: [],
  worker: ['worker'],
};

/**
 * The credentials a request needs: its route's auth in the route table (contract/routes), so that
 * the OpenAPI document and the check agree. A request that matched no route of the table needs the
 * TTS key under the API's roots and nothing elsewhere (the studio's files); a path no route matches
 * at all is answered 404 to either credential, so an admin tool with a mistyped id learns that the
 * id is wrong, not that its token is.
 */
function acceptedCredentials(request: FastifyRequest): Credential[] {
  const { auth } = request.routeOptions.config;
  if (auth) return ACCEPTED[auth];
  if (!isApiRequest(request)) return ACCEPTED.none;
  return ACCEPTED[matchedRoute(request) === undefined ? 'key-or-admin' : 'key'];
}

export interface Credentials {
  apiKey(): string;
  adminToken(): string;
  /** With worker hosts only. */
  workerToken?: string | undefined;
}

function presentedCredential(request: FastifyRequest, credentials: Credentials): Credential | undefined {
  const key = presentedKey(request);
  if (key === undefined) return undefined;
  if (keysMatch(key, credentials.apiKey())) return 'key';
  if (keysMatch(key, credentials.adminToken())) return 'admin';
  if (credentials.workerToken && keysMatch(key, credentials.workerToken)) return 'worker';
  return undefined;
}

function refusal(request: FastifyRequest, accepted: Credential[], presented: Credential | undefined): ApiError {
  if (accepted.includes('worker')) {
    return new ApiError(
      'unauthorized',
      'Send the worker token (the file worker-token in the data folder) as "Authorization: Bearer <token>".',
    );
  }
  if (presented === 'key') {
    return new ApiError('admin_required', 'This needs the admin token (the file admin-token in the data folder), not the API key.');
  }
  if (presented === 'admin') return new ApiError('unauthorized', 'The admin token changes settings only; send the API key.');
  return new ApiError(
    'unauthorized',
    presentedKey(request) ? 'The API key is wrong.' : 'Send the API key as "Authorization: Bearer <key>".',
  );
}

/**
 * Every /api/v1/tts route needs "Authorization: Bearer <credential>": the TTS key, or for the
 * routes that change what runs, the admin token. Neither opens the other's routes: a TTS key holder
 * (every local tool, the studio page) cannot change settings, and the admin token speaks nothing.
 * The worker hosts' routes take the worker token alone.
 */
export const auth = fp<Credentials>(
  async (app, credentials) => {
    app.addHook('onRequest', async (request) => {
      const accepted = acceptedCredentials(request);
      if (accepted.length === 0) return;
      const presented = presentedCredential(request, credentials);
      if (presented && accepted.includes(presented)) return;
      throw refusal(request, accepted, presented);
    });
  },
  { name: PLUGIN.auth, dependencies: [PLUGIN.hostCheck, PLUGIN.desktopOrigin] },
);
