import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, numberProblem, OPENAI_NUMBERS, OPENAI_ROOT, openAIDialectOf, type OpenAIErrorBody } from '../../contract';
import { answerFrameworkError, toApiError, type ErrorDialect } from './errors';

export interface OpenAIError {
  status: number;
  body: OpenAIErrorBody;
}

export function toOpenAIError(error: ApiError, param: string | null = null): OpenAIError {
  const dialect = openAIDialectOf(error.code);
  return {
    status: dialect.status,
    body: { error: { message: error.message, type: dialect.type, param: dialect.param ?? error.field ?? param, code: dialect.code } },
  };
}

/** Whether a path (as routed, or as sent when no API route matched) is the OpenAI dialect's. */
function isOpenAIPath(path: string): boolean {
  return path === OPENAI_ROOT || path.startsWith(`${OPENAI_ROOT}/`);
}

/**
 * Errors under /v1 in OpenAI's shape, whichever handler meets them: the route's, the key and Host
 * checks (hooks of the whole server), the 404 of a path no route has, and the studio's catch-all,
 * which a GET of an unknown /v1 path reaches. A request for no /v1 route answers 404 "Invalid
 * URL", as OpenAI does, whatever its method. `bodyLimit`: the speech route's, for the message.
 */
export function openAIDialect(bodyLimit: number): ErrorDialect {
  return {
    owns: (request) => {
      const route = request.routeOptions.url;
      return isOpenAIPath(route && !route.endsWith('*') ? route : request.url.split('?')[0]!);
    },
    notFound: (request, reply) => {
      const path = request.url.split('?')[0]!;
      return sendOpenAIError(reply, new ApiError('not_found', `Invalid URL (${request.method} ${path})`));
    },
    error: (error, request, reply) => {
      if (error.validation) {
        const { message, param } = describeValidation(error);
        return sendOpenAIError(reply, new ApiError('invalid_request', message), param);
      }
      const apiError = toApiError(error, bodyLimit);
      if (apiError.code === 'internal_error') console.error(`Orator: ${request.method} ${request.routeOptions.url ?? '?'} failed:`, error);
      return sendOpenAIError(reply, apiError);
    },
  };
}

/**
 * Errors Fastify meets before routing (a URL with broken percent-encoding): in OpenAI's shape
 * under /v1, in Orator's elsewhere. (Requests Node's parser refuses never show their path: they
 * get Orator's shape wherever they were going, see answerClientError.)
 */
export function answerFrameworkErrorInDialect(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  if (isOpenAIPath(request.url.split('?')[0]!)) sendOpenAIError(reply, toApiError(error, 0));
  else answerFrameworkError(error, request, reply);
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
  if (Object.hasOwn(OPENAI_NUMBERS, param)) return { message: numberProblem(param as keyof typeof OPENAI_NUMBERS), param };
  const allowed =
    first.keyword === 'enum'
      ? (params.allowedValues as unknown[]).map((value) => `'${String(value)}'`)
      : error
          .validation!.filter((e) => e.keyword === 'const' && e.instancePath === first.instancePath)
          .map((e) => `'${String((e.params as { allowedValue: unknown }).allowedValue)}'`);
  if (allowed.length > 1) return { message: `Invalid value for '${param}'. Supported values are: ${allowed.join(', ')}.`, param };
  if (param === 'input') {
    return { message: `'input' must be a string with at least one character that is not whitespace or a control character.`, param };
  }
  if (param === 'voice') return { message: `'voice' must be a voice name, or an object {"id": "<voice>"}.`, param };
  return { message: `Invalid value for '${param}': ${first.message ?? 'invalid'}.`, param };
}
