/** Lists and events merged by revision, in every order they can arrive in. */
import { describe, expect, it } from 'vitest';
import type { Job } from '../api/contract';
import { latest, mergeFirstPage, mergeLaterPage, type PageMerge } from './job-merge';

const job = (id: string, revision: number, status: Job['status'] = 'running', done = 0): Job => ({
  job_id: id,
  title: `Job ${id}`,
  status,
  progress: { done: status === 'done' ? 2 : done, total: 2 },
  engine: 'espeak-ng',
  voice: 'espeak-ng:en-us',
  characters: 1500,
  format: 'wav',
  keep_wav: false,
  created_at: `2026-01-01T00:00:0${id.charCodeAt(0) % 10}.000Z`,
  revision,
});

const byId = (...jobs: Job[]) => Object.fromEntries(jobs.map((j) => [j.job_id, j]));
const merge = (known: Job[], page: Job[], revision: number, extra: Partial<PageMerge> = {}): PageMerge => ({
  known: byId(...known),
  page: { jobs: page, revision },
  heard: new Map(),
  gone: new Set(),
  ...extra,
});
const states = (jobs: Record<string, Job>) => Object.fromEntries(Object.values(jobs).map((j) => [j.job_id, [j.status, j.revision]]));

describe('latest', () => {
  it('is the state with the highest revision, whatever the order; none without states', () => {
    const [a, b, c] = [job('a', 3), job('a', 5, 'done'), job('a', 4)];
    for (const order of [
      [a, b, c],
      [c, b, a],
      [b, undefined, a],
    ])
      expect(latest(...order)).toBe(b);
    expect(latest(undefined)).toBeUndefined();
  });
});

describe('the first page of the list, merged', () => {
  it('keeps a job added and done after the list was read, though the list arrives after its events', () => {
    // events: a added (5), progressed (6), done (7); the list was read at 4, before a existed
    const known = [job('old', 2, 'done'), job('a', 7, 'done')];
    const merged = mergeFirstPage(merge(known, [job('old', 2, 'done')], 4), false);
    expect(states(merged)).toEqual({ old: ['done', 2], a: ['done', 7] });
  });

  it('never takes a job back to an earlier state: a stale list loses to a later event, a later list wins', () => {
    const stale = mergeFirstPage(merge([job('a', 7, 'done')], [job('a', 6, 'running', 1)], 6), false);
    expect(states(stale)).toEqual({ a: ['done', 7] });
    const fresh = mergeFirstPage(merge([job('a', 6, 'running', 1)], [job('a', 7, 'done')], 7), false);
    expect(states(fresh)).toEqual({ a: ['done', 7] });
  });

  it('lets go of jobs the list no longer has as of its read (deleted, or on a later page), and never brings back a deleted one', () => {
    const known = [job('kept', 3, 'done'), job('deleted', 2, 'done'), job('page2', 1, 'done')];
    const merged = mergeFirstPage(
      merge(known, [job('kept', 3, 'done'), job('undone', 4, 'done')], 5, { gone: new Set(['undone']) }),
      false,
    );
    expect(states(merged)).toEqual({ kept: ['done', 3] });
  });

  it('with a search, keeps only its results, each in the latest state heard while it was read', () => {
    // b's done event came while the search was read: b was not in the list yet, so only the heard map has it
    const heard = new Map([['b', job('b', 9, 'done')]]);
    const known = [job('earlier-result', 3, 'done'), job('running-elsewhere', 8)];
    const merged = mergeFirstPage(merge(known, [job('b', 7, 'running', 1)], 7, { heard }), true);
    expect(states(merged)).toEqual({ b: ['done', 9] });
  });
});

describe('a later page, merged', () => {
  it('adds its jobs, keeps every job known, and regresses none', () => {
    const known = [job('new', 9, 'done'), job('a', 8, 'done')];
    const merged = mergeLaterPage(merge(known, [job('a', 6), job('older', 2, 'done')], 8));
    expect(states(merged)).toEqual({ new: ['done', 9], a: ['done', 8], older: ['done', 2] });
  });
});
