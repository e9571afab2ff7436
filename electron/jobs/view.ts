import { AUDIO_MEDIA, jobAudioPath, OUTPUT_FORMATS, type Job, type OutputFormat } from '../contract';
import { publicStatus } from './state';
import type { JobRow } from './rows';

/** Whether a job's audio is past its retention (the sweeper may not have deleted it yet). */
export function isExpired(row: JobRow, now = Date.now()): boolean {
  return row.expires_at !== null && Date.parse(row.expires_at) <= now;
}

/** Why a done job has no audio, or nothing when it has. */
function audioUnavailable(row: JobRow): Job['audio_unavailable'] {
  if (row.error_code === 'audio_missing') return { code: 'audio_missing', message: row.error_message ?? 'The audio file is missing.' };
  if (isExpired(row) || row.audio_bytes === null) {
    return { code: 'audio_expired', message: `The audio expired at ${row.expires_at} and was deleted.` };
  }
  return undefined;
}

/** Whether a job's WAV is on disk: its format, or kept beside it. */
export function hasWav(row: Pick<JobRow, 'format' | 'keep_wav'>): boolean {
  return row.format === 'wav' || row.keep_wav === 1;
}

/** The formats a job's audio can be sent in: any while it keeps plain samples to encode from (its WAV, or pcm), else its own. */
export function formatsOf(row: Pick<JobRow, 'format' | 'keep_wav'>): OutputFormat[] {
  return hasWav(row) || row.format === 'pcm' ? [...OUTPUT_FORMATS] : [row.format];
}

/** A job as the API shows it. */
export function toJobView(row: JobRow): Job {
  const unavailable = row.state === 'done' ? audioUnavailable(row) : undefined;
  return {
    job_id: row.id,
    title: row.custom_title ?? row.title,
    status: publicStatus(row.state),
    ...(row.state === 'paused' ? { paused: true as const } : {}),
    progress: { done: row.chunks_done, total: row.chunks_total },
    engine: row.engine,
    voice: row.voice,
    characters: row.characters,
    format: row.format,
    ...(row.bitrate_kbps !== null ? { bitrate_kbps: row.bitrate_kbps } : {}),
    keep_wav: row.keep_wav === 1,
    created_at: row.created_at,
    ...(row.finished_at ? { finished_at: row.finished_at } : {}),
    ...(row.expires_at ? { expires_at: row.expires_at } : {}),
    ...(row.state === 'done' && !unavailable
      ? {
          audio: {
            url: jobAudioPath(row.id),
            format: row.format,
            content_type: AUDIO_MEDIA[row.format].contentType,
            duration_s: Math.round((row.duration_s ?? 0) * 1000) / 1000,
            bytes: row.audio_bytes ?? 0,
            formats: formatsOf(row),
          },
        }
      : {}),
    ...(row.state === 'failed' ? { error: { code: row.error_code ?? 'failed', message: row.error_message ?? 'The job failed.' } } : {}),
    ...(unavailable ? { audio_unavailable: unavailable } : {}),
    revision: row.revision,
  };
}
