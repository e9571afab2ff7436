import { durationSeconds } from '../audio/wav';
import type { WrittenAudio } from './audio-writer';
import type { DiskBudget } from './disk-budget';
import { isDiskFull, type JobError } from './job-error';
import type { JobRow } from './rows';
import type { JobStore } from './store';

/** Ends jobs: records a job done with its written audio, or why a job failed. */
export class JobFinisher {
  constructor(private readonly deps: { store: JobStore; disk: DiskBudget }) {}

  /** Records the job done, with the size and duration of its audio. */
  recordDone(id: string, audio: WrittenAudio): JobRow {
    const { store } = this.deps;
    const sampleRate = store.get(id)!.sample_rate!;
    store.transition(id, 'done', {
      finished_at: new Date().toISOString(),
      audio_bytes: audio.bytes,
      duration_s: durationSeconds(sampleRate, audio.dataBytes),
    });
    return store.get(id)!;
  }

  /** Records a failure; null when it could not be recorded (the job then resumes at the next start). */
  recordFailure(id: string, error: JobError): JobRow | null {
    const { store, disk } = this.deps;
    // the disk ran out: its reserve makes room for SQLite to record why
    if (isDiskFull(error)) disk.releaseReserve();
    try {
      store.transition(id, 'failed', { finished_at: new Date().toISOString(), error_code: error.code, error_message: error.message });
    } catch (dbError) {
      // e.g. the disk is too full for SQLite too
      console.error(`Orator could not record that job ${id} failed (${error.message}):`, dbError);
      return null;
    }
    return store.get(id)!;
  }
}
