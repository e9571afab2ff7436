/**
 * The shape of one route of the route table: declared once, read by the gateway (which registers
 * it and builds its OpenAPI operation from it) and by the client (which fills its path and checks
 * its answers against it).
 */
import type { Static, TSchema } from 'typebox';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * Who may call a route: the TTS key; the admin token (changes what runs); either; anyone (whoami,
 * the pickers' lists); the worker token (the worker hosts' internal routes, outside the API).
 */
export type Auth = 'key' | 'admin' | 'key-or-admin' | 'none' | 'worker';

/** An answer that is not JSON (audio, an event stream, a file), as OpenAPI describes it. */
export interface MediaAnswer {
  description: string;
  content: Record<string, { schema: { type: 'string'; format?: 'binary' } }>;
}

/** A route as its group declares it; its operationId and tag come from the group. */
export interface RouteSpec {
  method: Method;
  /** The full path, parameters as Fastify writes them: /api/v1/tts/jobs/:id. */
  path: string;
  summary: string;
  /** The TTS key unless said otherwise. */
  auth?: Auth;
  params?: TSchema;
  query?: TSchema;
  headers?: TSchema;
  body?: TSchema;
  /** Each answer the route gives on success (and 304), by status: a schema of its JSON, or a media answer. */
  responses: Record<number, TSchema | MediaAnswer>;
  /**
   * The error statuses that are the route's own (404, 409, 410, 429, 502 to 507...): the gateway
   * declares them in the dialect's error shape, next to those every route shares (401, 403, 500,
   * 400 with parameters, 413 and 415 with a body).
   */
  errors?: readonly number[];
  /** Left out of the OpenAPI document (the worker hosts' routes). */
  hidden?: boolean;
}

export type Route = RouteSpec & { operationId: string; tags: readonly string[]; auth: Auth };

/**
 * A group of routes (one OpenAPI tag): each route's key is its operationId, so the id the document
 * shows, the client's name for the route and the table's key are one.
 */
export function routeGroup<const G extends Record<string, RouteSpec>>(
  tag: string,
  group: G,
): { [K in keyof G]: G[K] & { operationId: K & string; tags: readonly string[]; auth: Auth } } {
  return Object.fromEntries(
    Object.entries(group).map(([operationId, spec]) => [operationId, { auth: 'key', ...spec, operationId, tags: [tag] }]),
  ) as never;
}

export function isMediaAnswer(answer: TSchema | MediaAnswer | undefined): answer is MediaAnswer {
  return answer !== undefined && 'content' in answer && 'description' in answer && !('type' in answer);
}

/** A media answer of one or more content types, each a string (or bytes). */
export function mediaAnswer(description: string, types: readonly string[], binary = true): MediaAnswer {
  const schema = binary ? { type: 'string' as const, format: 'binary' as const } : { type: 'string' as const };
  return { description, content: Object.fromEntries(types.map((type) => [type, { schema }])) };
}

type SuccessStatus = 200 | 201 | 202 | 204 | 206;
type Part<T> = T extends TSchema ? Static<T> : never;

/** What a route answers on success as JSON: the union of its 2xx schemas (null for a 204). */
export type Answer<R extends Pick<RouteSpec, 'responses'>> = {
  [S in keyof R['responses'] & SuccessStatus]: Part<R['responses'][S]>;
}[keyof R['responses'] & SuccessStatus];

/** The parts of a request a route takes: its path parameters and body required, its query when any field is. */
export type RouteArgs<R extends RouteSpec> = (R['params'] extends TSchema ? { params: Static<R['params']> } : { params?: never }) &
  (R['query'] extends TSchema
    ? Partial<Static<R['query']>> extends Static<R['query']>
      ? { query?: Static<R['query']> }
      : { query: Static<R['query']> }
    : { query?: never }) &
  (R['body'] extends TSchema ? { body: Static<R['body']> } : { body?: never });

/** A route's path with its parameters filled in, each URL-encoded. */
export function pathOf(route: Pick<RouteSpec, 'path'>, params: Record<string, string | number> = {}): string {
  return route.path.replace(/:([A-Za-z_]+)/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${route.path} needs the parameter "${name}".`);
    return encodeURIComponent(String(value));
  });
}

/** A query string ("?a=1&b=x", or "" when empty): fields left undefined or "" are not sent. */
export function queryString(query: object | undefined): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined && value !== '') params.set(name, String(value));
  return params.size > 0 ? `?${params}` : '';
}
