import type WaveSurfer from 'wavesurfer.js';
import { isMissingRoute, type OratorClient } from '../api/client';
import type { Job, JobPeaks } from '../api/contract';
import { mediaAuthReady } from '../api/media-auth';

export type LoadMode = 'stream' | 'file';

/**
 * Opens a finished job in a player without decoding it in the page: the waveform comes from the
 * gateway's precomputed peaks and the audio streams with Range requests (through the service
 * worker that adds the key). Without peaks or streaming, the file is fetched whole.
 */
export async function loadJobAudio(ws: WaveSurfer, client: OratorClient, job: Job, signal: AbortSignal): Promise<LoadMode> {
  const peaks = await client.peaks(job.job_id).catch((error: unknown): JobPeaks | null => {
    if (isMissingRoute(error)) return null; // an older gateway
    throw error;
  });
  if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
  const duration = peaks?.duration_s || job.audio?.duration_s || undefined;
  const channel = peaks && peaks.peaks.length > 0 ? [peaks.peaks] : undefined;
  const canStream = client.connection.baseUrl === '' && (await mediaAuthReady());

  if (channel && duration && canStream) {
    await ws.load(client.jobAudioUrl(job.job_id), channel, duration);
    return 'stream';
  }
  const blob = await client.jobAudio(job.job_id, signal);
  if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
  await (channel && duration ? ws.loadBlob(blob, channel, duration) : ws.loadBlob(blob));
  return 'file';
}
