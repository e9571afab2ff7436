import type WaveSurfer from 'wavesurfer.js';
import type { OratorClient } from '../api/client';
import type { Job } from '../api/contract';
import { canStreamJobAudio } from '../api/media-auth';

export type LoadMode = 'stream' | 'file';

/**
 * Opens a finished job in a player without decoding it in the page: the waveform comes from the
 * gateway's precomputed peaks and the audio streams with Range requests, the key added by the
 * desktop app's main process or, in a browser, by the service worker. Where neither can add it
 * (a page not served by the gateway), the file is fetched whole, still drawn from the peaks.
 */
export async function loadJobAudio(ws: WaveSurfer, client: OratorClient, job: Job, signal: AbortSignal): Promise<LoadMode> {
  const peaks = await client.peaks(job.job_id);
  if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
  const channel = [peaks.peaks];
  const duration = peaks.duration_s;

  if (await canStreamJobAudio(client.connection)) {
    await ws.load(client.jobAudioUrl(job.job_id), channel, duration);
    return 'stream';
  }
  const blob = await client.jobAudio(job.job_id, signal);
  if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
  await ws.loadBlob(blob, channel, duration);
  return 'file';
}
