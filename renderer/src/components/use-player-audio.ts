import { useEffect, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import { describeError } from '../lib/format';
import { useApp } from '../store';
import type { PlayerSource } from '../store/player-slice';
import { loadJobAudio, type LoadMode } from './load-job-audio';

type LoadState = { status: 'loading' } | { status: 'ready'; mode: LoadMode | 'inline' } | { status: 'error'; message: string };

/**
 * The player's source loaded into its waveform (inline audio, or a job's: streamed or whole,
 * load-job-audio.ts), played at the zoom and speed chosen; a new source keeps them.
 */
export function usePlayerAudio(ws: WaveSurfer | null, source: PlayerSource) {
  const client = useApp((s) => s.client);
  // Kept with the key of the source they belong to: a new source reads as loading, with no error,
  // without a reset inside the effect.
  const [loaded, setLoaded] = useState<{ key: number; state: LoadState } | null>(null);
  const load: LoadState = loaded?.key === source.key ? loaded.state : { status: 'loading' };
  const [zoom, setZoom] = useState(0);
  const [speed, setSpeed] = useState(1);
  const ready = load.status === 'ready';

  useEffect(() => {
    if (!ws || !client) return;
    const abort = new AbortController();
    const loading =
      source.kind === 'audio'
        ? ws.loadBlob(source.audio.blob).then(() => 'inline' as const)
        : loadJobAudio(ws, client, source.job, abort.signal);
    loading
      .then((mode) => {
        if (abort.signal.aborted) return;
        setLoaded({ key: source.key, state: { status: 'ready', mode } });
        ws.setPlaybackRate(speed, true);
        if (source.kind === 'job' && source.startAt) ws.setTime(Math.min(source.startAt, ws.getDuration()));
        if (useApp.getState().autoplay) ws.play().catch(() => undefined); // blocked autoplay just leaves it paused
      })
      .catch((error: unknown) => {
        if (!abort.signal.aborted) setLoaded({ key: source.key, state: { status: 'error', message: describeError(error) } });
      });
    return () => abort.abort();
    // A new source (its key) reloads; speed changes are applied by their own effect.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [ws, client, source.key]);

  useEffect(() => {
    if (ws && ready) ws.zoom(zoom);
  }, [ws, ready, zoom]);
  useEffect(() => {
    ws?.setPlaybackRate(speed, true);
  }, [ws, speed]);

  return { load, ready, zoom, setZoom, speed, setSpeed };
}
