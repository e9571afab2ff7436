import { ApiError, codePoints, JOB_PAGE, JOB_SEARCH_MAX_CHARS, type JobListQuery, type JobStatus } from '../contract';
import { UNFINISHED_STATES, type JobState } from '../jobs/state';
import type { ListedJob, ListOrder, ListQuery } from '../jobs/store';

const STATES_OF: Record<JobStatus, JobState[]> = { running: [...UNFINISHED_STATES], done: ['done'], failed: ['failed'] };

/**
 * The store query for a page of the job list: newest first, or in the order asked for, optionally
 * only jobs whose title or text holds `q`, after the cursor's job; one job more than the page, to
 * tell whether another page follows.
 */
export function listQueryOf(params: JobListQuery): ListQuery {
  const limit = params.limit ?? JOB_PAGE.default;
  const by = params.sort ?? 'created';
  const order = { by, descending: (params.order ?? (by === 'title' ? 'asc' : 'desc')) === 'desc' };
  const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor, order);
  return { limit: limit + 1, order, after, search: searchOf(params.q), states: params.status ? STATES_OF[params.status] : undefined };
}

/** The page of the rows a `listQueryOf` query gave, and the cursor of the next page if there is one. */
export function pageOf(rows: ListedJob[], query: ListQuery): { rows: ListedJob[]; nextCursor?: string } {
  const page = rows.slice(0, query.limit - 1);
  const last = page[page.length - 1];
  return { rows: page, ...(rows.length > page.length && last ? { nextCursor: encodeCursor(last, query.order) } : {}) };
}

/** The search as chunks hold their text (runs of whitespace as one space); none when blank. */
function searchOf(q: string | undefined): string | undefined {
  const search = q?.replace(/\s+/g, ' ').trim();
  if (!search) return undefined;
  if (codePoints(search) > JOB_SEARCH_MAX_CHARS) {
    throw new ApiError('invalid_request', `"q" has at most ${JOB_SEARCH_MAX_CHARS} characters.`);
  }
  return search;
}

/** A cursor names its order, so that it cannot continue a list sorted another way. */
function encodeCursor(row: ListedJob, order: ListOrder): string {
  return Buffer.from(JSON.stringify([order.by, order.descending, row.sort_key, row.id])).toString('base64url');
}

function decodeCursor(cursor: string, order: ListOrder): { key: string | number; id: string } {
  let parts: unknown;
  try {
    parts = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parts = null;
  }
  if (!Array.isArray(parts) || parts.length !== 4) throw new ApiError('invalid_request', '"cursor" is not a cursor this gateway gave out.');
  const [by, descending, key, id] = parts as unknown[];
  if (by !== order.by || descending !== order.descending) {
    throw new ApiError('invalid_request', '"cursor" continues a list in another order; pass the same "sort" and "order".');
  }
  if ((typeof key !== 'string' && typeof key !== 'number') || typeof id !== 'string') {
    throw new ApiError('invalid_request', '"cursor" is not a cursor this gateway gave out.');
  }
  return { key, id };
}
