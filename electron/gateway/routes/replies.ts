import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, exportPath, jobPath } from '../../contract';

/** The receipt of a job taken up (a long text, a retry, a re-render): 202, with where to follow it, and what `more` the route says. */
export function sendJobAccepted(reply: FastifyReply, jobId: string, more: Record<string, unknown> = {}) {
  const poll = jobPath(jobId);
  return reply
    .code(202)
    .header('location', poll)
    .send({ job_id: jobId, poll, status: 'running' as const, ...more });
}

/** RFC 8187's attr-char: what a `filename*` value may carry unencoded. */
const ATTR_CHAR = /^[A-Za-z0-9!#$&+\-.^_`|~]$/;

/**
 * The Content-Disposition of every file the gateway sends (RFC 6266): `filename` in printable
 * ASCII for old clients and, when the name is more than that, the whole name as `filename*`
 * (RFC 8187: UTF-8, percent-encoded). A lone surrogate (half of a pair, as a title cut in two can
 * hold) has no UTF-8: it becomes U+FFFD rather than failing the answer.
 */
export function contentDisposition(kind: 'inline' | 'attachment', name: string): string {
  const whole = name.replace(/\p{Surrogate}/gu, '\uFFFD');
  const ascii = whole.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  if (ascii === whole) return `${kind}; filename="${ascii}"`;
  const encoded = [...Buffer.from(whole, 'utf8')]
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return ATTR_CHAR.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('');
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

/** The receipt of an export taken up: 202, with where to follow it. */
export function sendExportAccepted(reply: FastifyReply, exportId: string) {
  const poll = exportPath(exportId);
  return reply
    .code(202)
    .header('location', poll)
    .send({ export_id: exportId, poll, status: 'running' as const });
}

/** preValidation of the routes that speak a body: a POST with no body at all never reaches a content-type parser. */
export async function requireBody(request: FastifyRequest): Promise<void> {
  if (request.body !== undefined) return;
  if (!request.headers['content-type']) throw new ApiError('unsupported_media_type', 'Send the body as Content-Type: application/json.');
  throw new ApiError('invalid_json', 'The body is empty; send a JSON object.');
}
