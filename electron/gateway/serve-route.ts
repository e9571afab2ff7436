/**
 * Registers a route of the contract's route table (contract/routes): its method, path, schemas,
 * answers, own errors and auth come from the table; the route file gives only the handler (and
 * options such as a body limit). The OpenAPI operation is built from the same entry.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { Static, TSchema } from 'typebox';
import type { Answer, Auth, Route } from '../contract';
import { errorBodyOf } from './plugins/operations';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route (plugins/auth.ts reads it); absent on routes outside the table. */
    auth?: Auth;
  }
}

type Part<T> = T extends TSchema ? Static<T> : unknown;

/** The request as the route's schemas have validated it. */
export type RouteRequest<R extends Route> = FastifyRequest<{
  Params: Part<R['params']>;
  Querystring: Part<R['query']>;
  Body: Part<R['body']>;
  Headers: Part<R['headers']>;
}>;

/** A handler answers the route's success body, or sends its answer itself through the reply. */
export type RouteHandler<R extends Route> = (request: RouteRequest<R>, reply: FastifyReply) => Promise<Answer<R> | FastifyReply | void>;

/** OpenAPI `security` of an auth: none given means the document's default, the TTS key. */
const SECURITY: Record<Auth, Record<string, never[]>[] | undefined> = {
  key: undefined,
  admin: [{ admin: [] }],
  'key-or-admin': [{ bearer: [] }, { admin: [] }],
  none: [],
  worker: undefined,
};

/** The Fastify schema of a route: its parts, and its answers with its own errors in its dialect's shape. */
export function schemaOf(route: Route) {
  const errors = Object.fromEntries((route.errors ?? []).map((status) => [status, errorBodyOf(route.path)]));
  const parts = { params: route.params, querystring: route.query, headers: route.headers, body: route.body };
  return {
    ...Object.fromEntries(Object.entries(parts).filter(([, schema]) => schema !== undefined)),
    ...(route.hidden
      ? { hide: true }
      : { operationId: route.operationId, tags: [...route.tags], summary: route.summary, security: SECURITY[route.auth] }),
    response: { ...errors, ...route.responses },
  };
}

export function serve<R extends Route>(
  app: FastifyInstance,
  route: R,
  handler: RouteHandler<R>,
  options: Pick<RouteShorthandOptions, 'bodyLimit' | 'preValidation'> = {},
): void {
  app.route({
    ...options,
    method: route.method,
    url: route.path,
    schema: schemaOf(route),
    config: { auth: route.auth },
    handler: handler as never,
  });
}
