import { ApiError, type Job } from '../contract';
import type { JobRunner } from '../jobs/runner';
import type { JobStore } from '../jobs/store';
import { toJobView } from '../jobs/view';

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Reading jobs and their audio, whatever the transport. */
export class JobService {
  constructor(
    private readonly store: JobStore,
    private readonly runner: JobRunner,
  ) {}

  get(id: string): Job {
    return toJobView(this.row(id));
  }

  /** The path of a finished job's WAV file, or the reason there is none. */
  audioFile(id: string): string {
    const row = this.row(id);
    if (row.state === 'failed') throw new ApiError('job_failed', `Job ${id} failed: ${row.error_message ?? 'unknown error'}`);
    if (row.state !== 'done') {
      throw new ApiError('job_not_finished', `Job ${id} is still running (${row.chunks_done}/${row.chunks_total} chunks).`, { 'retry-after': '1' });
    }
    return this.runner.jobFiles.audioFile(id);
  }

  private row(id: string) {
    const row = JOB_ID.test(id) ? this.store.get(id) : undefined;
    if (!row) throw new ApiError('job_not_found', `No job "${id}".`);
    return row;
  }
}
