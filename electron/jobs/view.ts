import { jobAudioPath, type Job } from '../contract';
import { publicStatus } from './state';
import type { JobRow } from './store';

/** A job as the API shows it. */
export function toJobView(row: JobRow): Job {
  return {
    job_id: row.id,
    title: row.title,
    status: publicStatus(row.state),
    progress: { done: row.chunks_done, total: row.chunks_total },
    engine: row.engine,
    voice: row.voice,
    characters: row.characters,
    created_at: row.created_at,
    ...(row.finished_at ? { finished_at: row.finished_at } : {}),
    ...(row.expires_at ? { expires_at: row.expires_at } : {}),
    ...(row.state === 'done' && row.audio_bytes !== null
      ? {
          audio: {
            url: jobAudioPath(row.id),
            content_type: 'audio/wav',
            duration_s: Math.round((row.duration_s ?? 0) * 1000) / 1000,
            bytes: row.audio_bytes ?? 0,
          },
        }
      : {}),
    ...(row.state === 'failed' ? { error: { code: row.error_code ?? 'failed', message: row.error_message ?? 'The job failed.' } } : {}),
  };
}
