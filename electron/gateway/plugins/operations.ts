import type { FastifyInstance, FastifySchema } from 'fastify';
import { ErrorBody, OPENAI_ROOT, OpenAIErrorBody } from '../../contract';

/** A route as registered, for the test that walks the OpenAPI document against them. */
export interface RegisteredOperation {
  method: string;
  url: string;
  operationId: string | undefined;
  /** Left out of the OpenAPI document (the worker hosts' routes, the static files). */
  hidden: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered, HEAD twins left out. */
    operations: RegisteredOperation[];
  }
}

type OperationSchema = FastifySchema & { hide?: boolean; operationId?: string; security?: unknown[]; response?: Record<string, unknown> };

/**
 * The errors any route can answer are declared in its OpenAPI operation here, once, from what the
 * route says of itself: 403 (the Host check before routing; admin_required) and 500 (a bug) on
 * every route, 401 unless it is public (`security: []`), 400 when it validates a part of the
 * request, 413 and 415 when it reads a body. Under /v1 in OpenAI's shape and statuses (its 400
 * covers Orator's 413 and 415). A route declares what is its own: 404, 409, 410, 429, 502 to 507.
 * Register before the OpenAPI plugin and the routes, so that the document sees the result.
 */
export function declareOperations(app: FastifyInstance): void {
  const operations: RegisteredOperation[] = [];
  app.decorate('operations', operations);
  app.addHook('onRoute', (route) => {
    if (route.method === 'HEAD') return;
    const schema = route.schema as OperationSchema | undefined;
    for (const method of [route.method].flat()) {
      operations.push({ method, url: route.url, operationId: schema?.operationId, hidden: !schema || schema.hide === true });
    }
    if (!schema || schema.hide) return;
    const openai = isOpenAI(route.url);
    const statuses = [403, 500];
    if (!(Array.isArray(schema.security) && schema.security.length === 0)) statuses.push(401);
    if (schema.body || schema.querystring || schema.params || schema.headers) statuses.push(400);
    if (schema.body && !openai) statuses.push(413, 415);
    const body = errorBodyOf(route.url);
    schema.response = { ...Object.fromEntries(statuses.sort().map((status) => [status, body])), ...schema.response };
  });
}

const isOpenAI = (url: string) => url === OPENAI_ROOT || url.startsWith(`${OPENAI_ROOT}/`);

/** The error shape of a route's dialect: OpenAI's under /v1, Orator's everywhere else. */
export const errorBodyOf = (url: string) => (isOpenAI(url) ? OpenAIErrorBody : ErrorBody);
