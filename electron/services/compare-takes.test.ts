import { describe, expect, it } from 'vitest';
import type { JobRow } from '../jobs/rows';
import { newTake, takeView } from './compare-takes';

const job = (state: JobRow['state']) => ({ state, chunks_done: 1, chunks_total: 1 }) as JobRow;

describe('takeView', () => {
  it('shows a take whose job finished but is not taken up as running, so that clients read again', () => {
    const take = { ...newTake(0, 'espeak-ng:en-us'), job_id: 'j' };
    expect(takeView(take, job('done')).status).toBe('running');
    expect(takeView(take, job('queued')).status).toBe('running');
    expect(takeView(take, job('failed')).status).toBe('running');
    expect(takeView(take, job('paused')).status).toBe('pending');
    expect(takeView({ ...take, job_id: null, error: { code: 'engine_error', message: 'x' } }, undefined).status).toBe('failed');
  });
});
