import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, OPENAI_ROOT, TTS_ROOT } from '../../contract';
import { keysMatch } from '../api-key';

/**
 * Whether a request is for the API. Decided on the route the router matched, never on the raw
 * URL: "/%61pi/v1/tts/…" reaches the same route as "/api/v1/tts/…". Requests that match no API
 * route (404s, the static catch-all) are judged on their decoded path.
 */
function isApiRequest(request: FastifyRequest): boolean {
  const route = request.routeOptions.url;
  const path = route && !route.endsWith('*') ? route : decodedPath(request.url);
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

/** A route whose OpenAPI operation says `security: []` (whoami) is open; the document and the check agree. */
function isPublicRoute(request: FastifyRequest): boolean {
  const security = (request.routeOptions.schema as { security?: unknown[] } | undefined)?.security;
  return Array.isArray(security) && security.length === 0;
}

/** Every /api/v1/tts route needs "Authorization: Bearer <key>", but for those marked public. */
export function registerAuth(app: FastifyInstance, apiKey: () => string): void {
  app.addHook('onRequest', async (request) => {
    if (!isApiRequest(request) || isPublicRoute(request) || hasKey(request, apiKey)) return;
    throw new ApiError(
      'unauthorized',
      presentedKey(request) ? 'The API key is wrong.' : 'Send the API key as "Authorization: Bearer <key>".',
    );
  });
}
