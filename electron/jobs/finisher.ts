import { durationSeconds, WAV_HEADER_BYTES } from '../audio/wav';
import { assembleWav, wavDataBytes } from './assemble';
import type { DiskBudget } from './disk-budget';
import type { JobFiles } from './files';
import { isDiskFull, type JobError } from './job-error';
import type { JobRow, JobStore } from './store';

/** Ends jobs: joins a finished job's chunks into its WAV, or records why a job failed. */
export class JobFinisher {
  constructor(private readonly deps: { store: JobStore; files: JobFiles; disk: DiskBudget }) {}

  /** Writes the job's WAV and peaks from its chunks and records it done. */
  async finish(id: string): Promise<JobRow> {
    const { store, files, disk } = this.deps;
    const sampleRate = store.get(id)!.sample_rate!;
    const layout = store.chunkLayout(id);
    await disk.assertRoomToWrite(wavDataBytes(layout, sampleRate));
    const target = { wav: files.audioFile(id), peaks: files.peaksFile(id) };
    const { bytes } = await assembleWav(target, sampleRate, layout, (idx) => files.chunkFile(id, idx));
    store.transition(id, 'done', {
      finished_at: new Date().toISOString(),
      audio_bytes: bytes,
      duration_s: durationSeconds(sampleRate, bytes - WAV_HEADER_BYTES),
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
