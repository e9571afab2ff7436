import { API } from '../api/contract';
import type WaveSurfer from 'wavesurfer.js';
import type { OratorClient } from '../api/client';
import type { Job } from '../api/contract';
import { canStreamJobAudio } from '../api/media-auth';

export type LoadMode = 'stream' | 'file';

/** Peaks asked for when the player's width is not known yet (it is laid out hidden). */
const PEAK_COLUMNS_MIN = 1000;

/**
 * Opens a finished job in a player without decoding it in the page: the waveform comes from the
 * gateway's precomputed peaks and the audio streams with Range requests, the key added by the
 * desktop app's main process or, in a browser, by the service worker. Where neither can add it
 * (a page not served by the gateway), the file is fetched whole, still drawn from the peaks.
 */
export async function loadJobAudio(ws: WaveSurfer, client: OratorClient, job: Job, signal: AbortSignal): Promise<LoadMode> {
  // only as many peaks as the waveform has device pixels (twice, for zoom): a 16-hour job's full
  // resolution is 2.9 million peaks, which took the page a second to fetch and parse
  const columns = 2 * Math.max(PEAK_COLUMNS_MIN, ws.getWrapper().clientWidth * window.devicePixelRatio);
  const peaks = await client.call(API.getJobPeaks, { params: { id: job.job_id }, query: { columns: Math.max(1, Math.round(columns)) } });
  if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
  const channel = [peaks.peaks];
  const duration = peaks.duration_s;

  const format = playableFormat(job);
  if (await canStreamJobAudio(client.connection)) {
    await ws.load(client.href(API.getJobAudio, { params: { id: job.job_id }, query: { format: format } }), channel, duration);
    return 'stream';
  }
  const blob = await client.blob(API.getJobAudio, { params: { id: job.job_id }, query: { format: format }, signal: signal });
  if (signal.aborted) throw new DOMException('Aborted', 'AbortError');
  await ws.loadBlob(blob, channel, duration);
  return 'file';
}

/**
 * The format the player asks for: the job's own file (WAV, MP3, Ogg Opus, FLAC and AAC in MP4 all
 * play in Chromium, with Range requests), but raw pcm, which no media element plays, is asked for
 * as a WAV encoded as it is sent.
 */
export function playableFormat(job: Job): 'wav' | undefined {
  return job.audio?.format === 'pcm' ? 'wav' : undefined;
}
