/** Test support: whether an answer to a hostile request is what the API documents. */
import { parseWav } from '../audio/wav';
import { ERROR_STATUS, openAIDialectOf, type ErrorCode } from '../contract';
import type { Expected } from './hostile-requests';
import type { Answer } from './raw-http';

export interface Outcome {
  status: number;
  /** The error code of a 4xx, as sent: Orator's, or OpenAI's (null: OpenAI sends none) under /v1. */
  code?: string | null;
  /** The error came in OpenAI's shape, {"error":{"message","type","param","code"}}. */
  openai?: boolean;
  /** What is wrong with the answer whatever was asked: a 5xx, an error that is not the documented JSON, a broken WAV. */
  problem?: string;
}

/**
 * Every answer: no 5xx; errors as {"error":{"code","message"}} with the code's own status, or in
 * OpenAI's shape as the /v1 routes state Orator's errors; audio a well-formed WAV.
 */
export function outcomeOf(answer: Answer, method = 'GET'): Outcome {
  const { status } = answer;
  const type = String(answer.headers['content-type'] ?? '');
  if (status >= 500) return { status, problem: `${status}: ${answer.body.toString('utf8').slice(0, 200)}` };
  if (status >= 400) {
    if (!type.startsWith('application/json')) return { status, problem: `${status} answered as "${type}"` };
    if (method === 'HEAD') return { status };
    let error: unknown;
    try {
      error = (JSON.parse(answer.body.toString('utf8')) as { error?: unknown }).error;
    } catch {
      error = undefined;
    }
    if (typeof error !== 'object' || error === null) {
      return { status, problem: `${status} body is not the error JSON: ${answer.body.toString('utf8').slice(0, 200)}` };
    }
    const fields = error as Record<string, unknown>;
    return 'type' in fields ? openAIOutcome(status, fields) : oratorOutcome(status, fields);
  }
  if (type.startsWith('audio/wav') && method !== 'HEAD' && status === 200) {
    try {
      const info = parseWav(answer.body);
      if (info.dataOffset + info.dataBytes !== answer.body.length) return { status, problem: 'WAV sizes do not add up' };
    } catch (error) {
      return { status, problem: `not a WAV: ${(error as Error).message}` };
    }
  }
  return { status };
}

function oratorOutcome(status: number, error: Record<string, unknown>): Outcome {
  const code = String(error.code);
  const documented = ERROR_STATUS[code as ErrorCode];
  if (documented !== status) return { status, code, problem: `${status} with code "${code}" (documented: ${documented})` };
  if (typeof error.message !== 'string' || error.message.length < 5) return { status, code, problem: 'no message' };
  return { status, code };
}

/** OpenAI's shape (the /v1 routes): some Orator error must be stated so, status, type and code. */
function openAIOutcome(status: number, error: Record<string, unknown>): Outcome {
  const code = error.code as string | null;
  const outcome = { status, code, openai: true };
  const stated = (Object.keys(ERROR_STATUS) as ErrorCode[]).map(openAIDialectOf);
  if (!stated.some((d) => d.status === status && d.code === code && d.type === error.type)) {
    return { ...outcome, problem: `${status} with OpenAI type "${String(error.type)}" and code "${code}", which no Orator error gives` };
  }
  if (typeof error.message !== 'string' || error.message.length < 5) return { ...outcome, problem: 'no message' };
  if (!('param' in error)) return { ...outcome, problem: 'no param' };
  return outcome;
}

/** Whether the outcome is the Orator error `code`, in whichever shape it came. */
export function isError(outcome: Outcome, code: ErrorCode): boolean {
  if (!outcome.openai) return outcome.code === code;
  const dialect = openAIDialectOf(code);
  return outcome.status === dialect.status && outcome.code === dialect.code;
}

const summary = (o: Outcome) => `${o.status}${o.code ? ` ${o.code}` : ''}`;

/** Null when the answer is right, else why not. `clean` is the route's answer to a clean request. */
export function judge(answer: Answer, expected: Expected, clean: Outcome, method?: string): string | null {
  const outcome = outcomeOf(answer, method);
  if (outcome.problem) return outcome.problem;
  if ('codes' in expected) {
    return expected.codes.some((code) => isError(outcome, code))
      ? null
      : `got ${summary(outcome)}, expected ${expected.codes.join(' or ')}`;
  }
  if (outcome.status >= 400 && expected.orCodes?.some((code) => isError(outcome, code))) return null;
  // the matrix sends many manuscripts at once: "4 files wait already, retry" (429 queue_full) is the
  // documented answer of a route that would succeed once the queue has room (docs/api.md)
  if (clean.status < 400 && isError(outcome, 'queue_full')) return null;
  // and on one job at once: "a re-render or sentence edit of this job is under way, retry" (409
  // chunk_in_progress) is the documented answer of a job change that succeeds once the other ends
  if (clean.status < 400 && isError(outcome, 'chunk_in_progress')) return null;
  if ('success' in expected) return outcome.status < 300 ? null : `got ${summary(outcome)}, expected a success`;
  const same = clean.status < 400 ? outcome.status < 400 : outcome.status === clean.status && outcome.code === clean.code;
  return same ? null : `got ${summary(outcome)}, expected what a clean request gets (${summary(clean)})`;
}
