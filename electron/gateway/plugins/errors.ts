import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { maxHeaderSize, STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { ApiError, BITRATE_RULES, OPTION_RANGES, type OptionName } from '../../contract';
import { PLUGIN } from './names';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Set by a route that sends a file: its answer when the file is gone by the time it is opened
     * (deleted at that moment), instead of the router's 404/405.
     */
    onMissingFile: (() => ApiError) | null;
  }
}

/**
 * Another error shape for the requests it owns (OpenAI's under /v1): asked first by the server's
 * own handlers, so that it answers whichever route or plugin the request reached (the studio's
 * catch-all for a GET of an unknown /v1 path among them).
 */
export interface ErrorDialect {
  owns(request: FastifyRequest): boolean;
  notFound(request: FastifyRequest, reply: FastifyReply): unknown;
  error(error: FastifyError, request: FastifyRequest, reply: FastifyReply): unknown;
}

/** Every error leaves the gateway as {"error":{"code","message"}} with its status and headers, or in a dialect's shape. */
export const errorHandling = fp<{ bodyLimit: number; dialects?: readonly ErrorDialect[] }>(
  async (app, { bodyLimit, dialects = [] }) => {
    const routes: { method: string; pattern: RegExp }[] = [];
    app.addHook('onRoute', (route) => {
      if (route.url.endsWith('*')) return; // the static catch-all serves files, it allows no method
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const pattern = new RegExp(`^${route.url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[^/]+/g, '[^/]+')}$`);
      for (const method of methods) routes.push({ method, pattern });
    });

    app.decorateRequest('onMissingFile', null);
    app.setNotFoundHandler((request, reply) => {
      if (request.onMissingFile) return send(reply, request.onMissingFile());
      const dialect = dialects.find((d) => d.owns(request));
      if (dialect) return dialect.notFound(request, reply);
      const path = request.url.split('?')[0]!;
      const allowed = [...new Set(routes.filter((r) => r.pattern.test(path) && r.method !== 'HEAD').map((r) => r.method))];
      if (allowed.length === 0) return send(reply, new ApiError('not_found', `No route ${request.method} ${path}.`));
      reply.header('allow', allowed.join(', '));
      send(reply, new ApiError('method_not_allowed', `${request.method} is not allowed here; use ${allowed.join(' or ')}.`));
    });

    app.setErrorHandler((error: FastifyError & { headers?: Record<string, string> }, request, reply) => {
      const dialect = dialects.find((d) => d.owns(request));
      if (dialect) return dialect.error(error, request, reply);
      const apiError = toApiError(error, bodyLimit);
      // a range outside the file: the answer says how long the file is
      const size = apiError.code === 'range_not_satisfiable' ? error.headers?.['Content-Range'] : undefined;
      if (size) reply.header('content-range', size);
      // expected failures (engines, limits) are in the answer; a bug needs its stack in the log
      if (apiError.code === 'internal_error') console.error(`Orator: ${request.method} ${request.routeOptions.url ?? '?'} failed:`, error);
      send(reply, apiError);
    });
  },
  { name: PLUGIN.errors, dependencies: [PLUGIN.securityHeaders] },
);

/** Errors Fastify meets before routing (a URL with broken percent-encoding): the same JSON as every other error. */
export function answerFrameworkError(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  send(reply, toApiError(error, 0));
}

/**
 * Requests Node's HTTP parser refuses (a malformed request line or header, headers over the size
 * limit, a request that does not arrive in time) never reach Fastify: they are answered here in the
 * same JSON, and the connection is closed since its framing cannot be trusted.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const apiError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? new ApiError('headers_too_large', `The request line and headers are larger than ${maxHeaderSize} bytes.`)
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? new ApiError('request_timeout', 'The request did not arrive in time.')
        : new ApiError('invalid_request', 'The request is not valid HTTP/1.1.');
  const body = JSON.stringify(apiError.toBody());
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${apiError.status} ${STATUS_CODES[apiError.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

function send(reply: FastifyReply, error: ApiError) {
  // an error is never the file a route meant to send
  reply.removeHeader('content-disposition');
  if (error.retryAfterS !== undefined) reply.header('retry-after', String(error.retryAfterS));
  // a 401 names the scheme that would pass (RFC 9110)
  if (error.code === 'unauthorized') reply.header('www-authenticate', 'Bearer realm="orator"');
  reply.code(error.status).type('application/json').send(error.toBody());
}

/** A Fastify or Node error as the API error it stands for (unknown errors: internal_error). */
export function toApiError(error: FastifyError, bodyLimit: number): ApiError {
  if (error instanceof ApiError) return error;
  if (error.validation) return new ApiError('invalid_request', describeValidation(error));
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new ApiError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new ApiError('invalid_json', 'The body is empty; send a JSON object.');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return new ApiError('invalid_json', 'The body is not valid JSON, or it has a "__proto__" or "constructor" key, which is refused.');
    case 'FST_ERR_BAD_URL':
      return new ApiError('invalid_request', 'The URL has a malformed percent-encoding.');
  }
  if (error.statusCode === 413) {
    // said in MB, as people know their files, with what to do
    const mb = (bodyLimit / (1024 * 1024)).toFixed(1);
    return new ApiError(
      'payload_too_large',
      `The request is over ${mb} MB, the most the gateway takes (${bodyLimit} bytes). Send a smaller file: a book's text without its images, or in parts.`,
    );
  }
  if (error.statusCode === 416) return new ApiError('range_not_satisfiable', 'The requested byte range is outside the file.');
  if (error.statusCode && error.statusCode < 500) return new ApiError('invalid_request', error.message);
  return new ApiError('internal_error', 'The gateway failed unexpectedly; see its log.');
}

/** A sentence for the first schema violation, naming the field and, for options, the allowed range. */
function describeValidation(error: FastifyError): string {
  const first = error.validation![0]!;
  const params = first.params as Record<string, unknown>;
  if (first.keyword === 'required') return `"${String(params.missingProperty)}" is required.`;
  if (first.keyword === 'additionalProperties') return `Unknown field "${String(params.additionalProperty)}".`;
  const field = first.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (field in OPTION_RANGES) {
    const range = OPTION_RANGES[field as OptionName];
    return `"${field}" must be a number from ${range.min} to ${range.max} (1 is normal).`;
  }
  if (field === 'bitrate_kbps') return `"bitrate_kbps" must be a whole number of kbps that suits the format (${BITRATE_RULES}).`;
  const range = numericRange((first as { parentSchema?: unknown }).parentSchema);
  if (range) return `"${field}" must be ${range}.`;
  if (field === 'text') return '"text" must be a string with at least one character that is not whitespace or a control character.';
  const allowed =
    first.keyword === 'enum'
      ? (params.allowedValues as unknown[]).map((value) => JSON.stringify(value))
      : error
          .validation!.filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
          .map((e) => JSON.stringify(e.params.allowedValue));
  if (allowed.length) return `"${field}" must be one of ${allowed.join(', ')}.`;
  return `"${field || error.validationContext}" ${first.message ?? 'is invalid'}.`;
}

/** "an integer from 1 to 200" for a bounded number's schema (validators.ts makes errors carry it), else null. */
function numericRange(schema: unknown): string | null {
  const { type, minimum, maximum } = (schema ?? {}) as { type?: unknown; minimum?: unknown; maximum?: unknown };
  if ((type !== 'integer' && type !== 'number') || minimum === undefined || maximum === undefined) return null;
  return `${type === 'integer' ? 'an integer' : 'a number'} from ${String(minimum)} to ${String(maximum)}`;
}
