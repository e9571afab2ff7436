/** Test support: whether an answer to a hostile request is what the API documents. */
import { parseWav } from '../audio/wav';
import { ERROR_STATUS } from '../contract';
import type { Expected } from './hostile-requests';
import type { Answer } from './raw-http';

export interface Outcome {
  status: number;
  /** The error code of a 4xx. */
  code?: string;
  /** What is wrong with the answer whatever was asked: a 5xx, an error that is not the documented JSON, a broken WAV. */
  problem?: string;
}

/** Every answer: no 5xx; errors as {"error":{"code","message"}} with the code's own status; audio a well-formed WAV. */
export function outcomeOf(answer: Answer, method = 'GET'): Outcome {
  const { status } = answer;
  const type = String(answer.headers['content-type'] ?? '');
  if (status >= 500) return { status, problem: `${status}: ${answer.body.toString('utf8').slice(0, 200)}` };
  if (status >= 400) {
    if (!type.startsWith('application/json')) return { status, problem: `${status} answered as "${type}"` };
    if (method === 'HEAD') return { status };
    try {
      const { error } = JSON.parse(answer.body.toString('utf8')) as { error: { code: string; message: string } };
      const documented = ERROR_STATUS[error.code as keyof typeof ERROR_STATUS];
      if (documented !== status)
        return { status, code: error.code, problem: `${status} with code "${error.code}" (documented: ${documented})` };
      if (typeof error.message !== 'string' || error.message.length < 5) return { status, code: error.code, problem: 'no message' };
      return { status, code: error.code };
    } catch {
      return { status, problem: `${status} body is not the error JSON: ${answer.body.toString('utf8').slice(0, 200)}` };
    }
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

const summary = (o: Outcome) => `${o.status}${o.code ? ` ${o.code}` : ''}`;

/** Null when the answer is right, else why not. `clean` is the route's answer to a clean request. */
export function judge(answer: Answer, expected: Expected, clean: Outcome, method?: string): string | null {
  const outcome = outcomeOf(answer, method);
  if (outcome.problem) return outcome.problem;
  if ('codes' in expected) {
    return outcome.code && (expected.codes as string[]).includes(outcome.code)
      ? null
      : `got ${summary(outcome)}, expected ${expected.codes.join(' or ')}`;
  }
  if (outcome.code && (expected.orCodes as string[] | undefined)?.includes(outcome.code)) return null;
  if ('success' in expected) return outcome.status < 300 ? null : `got ${summary(outcome)}, expected a success`;
  const same = clean.status < 400 ? outcome.status < 400 : outcome.code === clean.code;
  return same ? null : `got ${summary(outcome)}, expected what a clean request gets (${summary(clean)})`;
}
