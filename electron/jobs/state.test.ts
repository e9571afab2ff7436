import { describe, expect, it } from 'vitest';
import { ALL_STATES, assertTransition, canTransition, isFinished, publicStatus, type JobState } from './state';

const allowed: [JobState, JobState][] = [
  ['queued', 'running'],
  ['queued', 'failed'],
  ['running', 'done'],
  ['running', 'failed'],
  ['running', 'queued'],
  ['queued', 'paused'],
  ['running', 'paused'],
  ['paused', 'queued'],
  ['paused', 'failed'],
  ['failed', 'queued'],
];

describe('job state machine', () => {
  it.each(ALL_STATES.flatMap((from) => ALL_STATES.map((to) => [from, to] as const)))('%s → %s', (from, to) => {
    const expected = allowed.some(([a, b]) => a === from && b === to);
    expect(canTransition(from, to)).toBe(expected);
    if (expected) expect(() => assertTransition(from, to)).not.toThrow();
    else expect(() => assertTransition(from, to)).toThrow(`${from} to ${to}`);
  });

  it('shows waiting jobs as running and keeps the finished states', () => {
    expect(ALL_STATES.map(publicStatus)).toEqual(['running', 'running', 'running', 'done', 'failed']);
    expect(ALL_STATES.filter(isFinished)).toEqual(['done', 'failed']);
  });
});
