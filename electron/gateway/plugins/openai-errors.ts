import type { FastifyError, FastifyInstance, FastifyReply } from 'fastify';
import { ApiError, type ErrorCode, type OpenAIErrorBody } from '../../contract';
import { toApiError } from './errors';

export interface OpenAIError {
  status: number;
  body: OpenAIErrorBody;
}

interface Dialect {
  status: 400 | 401 | 403 | 404 | 429 | 500;
  /** OpenAI's code; absent: Orator's own code, which says more than null. */
  code?: string | null;
  param?: string;
}

/**
 * Orator's errors as OpenAI states them. OpenAI answers a bad request 400 whatever its cause
 * (Orator's 413, 415 and 422 included) and a failure of its own 500 (Orator's 502 to 507).
 */
const DIALECT: Partial<Record<ErrorCode, Dialect>> = {
  unauthorized: { status: 401, code: 'invalid_api_key' },
  forbidden_host: { status: 403 },
  not_found: { status: 404, code: null },
  method_not_allowed: { status: 404, code: null },
  engine_not_found: { status: 404, code: 'model_not_found', param: 'model' },
  text_too_long: { status: 400, code: 'string_above_max_length', param: 'input' },
  unknown_voice: { status: 400, code: 'invalid_value', param: 'voice' },
  unknown_engine: { status: 400, code: 'invalid_value', param: 'model' },
  queue_full: { status: 429, code: 'rate_limit_exceeded' },
  too_many_streams: { status: 429, code: 'rate_limit_exceeded' },
};

const TYPE_OF_STATUS: Record<Dialect['status'], string> = {
  400: 'invalid_request_error',
  401: 'invalid_request_error',
  403: 'invalid_request_error',
  404: 'invalid_request_error',
  429: 'requests',
  500: 'server_error',
};

export function toOpenAIError(error: ApiError, param: string | null = null): OpenAIError {
  const dialect: Dialect = DIALECT[error.code] ?? { status: error.status < 500 ? 400 : 500 };
  return {
    status: dialect.status,
    body: {
      error: {
        message: error.message,
        type: TYPE_OF_STATUS[dialect.status],
        param: dialect.param ?? param,
        code: dialect.code === undefined ? error.code : dialect.code,
      },
    },
  };
}

/**
 * Errors of the /v1 routes in OpenAI's shape, for this plugin's routes only (the key check and
 * the Host check, hooks of the whole server, end here too for /v1 requests). A request for no
 * /v1 route answers 404 "Invalid URL", as OpenAI does, whatever its method.
 */
export function registerOpenAIErrors(app: FastifyInstance, bodyLimit: number): void {
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0]!;
    sendOpenAIError(reply, new ApiError('not_found', `Invalid URL (${request.method} ${path})`));
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error.validation) {
      const { message, param } = describeValidation(error);
      return sendOpenAIError(reply, new ApiError('invalid_request', message), param);
    }
    const apiError = toApiError(error, bodyLimit);
    if (apiError.code === 'internal_error') console.error(`Orator: ${request.method} ${request.routeOptions.url ?? '?'} failed:`, error);
    sendOpenAIError(reply, apiError);
  });
}

export function sendOpenAIError(reply: FastifyReply, error: ApiError, param: string | null = null) {
  const { status, body } = toOpenAIError(error, param);
  if (error.retryAfterS !== undefined) reply.header('retry-after', String(error.retryAfterS));
  if (status === 401) reply.header('www-authenticate', 'Bearer realm="orator"');
  return reply.code(status).type('application/json').send(body);
}

/** OpenAI's wording for a schema violation, naming the parameter at fault. */
function describeValidation(error: FastifyError): { message: string; param: string | null } {
  const first = error.validation![0]!;
  const params = first.params as Record<string, unknown>;
  if (first.keyword === 'required') {
    const param = String(params.missingProperty);
    return { message: `Missing required parameter: '${param}'.`, param };
  }
  if (first.keyword === 'additionalProperties') {
    const param = String(params.additionalProperty);
    return { message: `Unrecognized request argument supplied: ${param}`, param };
  }
  const param = first.instancePath.split('/')[1] ?? null;
  if (param === null) return { message: `The body ${first.message ?? 'is invalid'}; send a JSON object.`, param };
  const allowed = error
    .validation!.filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
    .map((e) => `'${String((e.params as { allowedValue: unknown }).allowedValue)}'`);
  if (allowed.length > 1) return { message: `Invalid value for '${param}'. Supported values are: ${allowed.join(', ')}.`, param };
  if (param === 'input') {
    return { message: `'input' must be a string with at least one character that is not whitespace or a control character.`, param };
  }
  if (param === 'voice') return { message: `'voice' must be a voice name, or an object {"id": "<voice>"}.`, param };
  return { message: `Invalid value for '${param}': ${first.message ?? 'invalid'}.`, param };
}
