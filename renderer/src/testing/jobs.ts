/** Test support: jobs as the gateway answers them (electron/contract/jobs.ts), for component tests. */
import type { Job } from '../api/contract';

const JOB_ID = '0b7d5a62-6f1c-4a43-9a55-3b0f5d1f0c11';

/** A done job of one chunk with its WAV, kept a day from `now`; `changes` override any field. */
export function doneJob(changes: Partial<Job> = {}, now = Date.now()): Job {
  return {
    job_id: JOB_ID,
    title: 'Chapter One',
    status: 'done',
    progress: { done: 1, total: 1 },
    engine: 'espeak-ng',
    voice: 'espeak-ng:en-us',
    characters: 40,
    format: 'wav',
    keep_wav: false,
    created_at: new Date(now - 5_000).toISOString(),
    finished_at: new Date(now).toISOString(),
    expires_at: new Date(now + 24 * 3600_000).toISOString(),
    audio: {
      url: `/api/v1/tts/jobs/${JOB_ID}/audio`,
      format: 'wav',
      content_type: 'audio/wav',
      duration_s: 2,
      bytes: 44,
      formats: ['wav'],
    },
    revision: 3,
    ...changes,
  };
}
