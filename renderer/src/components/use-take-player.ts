import { useEffect, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import type { PlayedTake } from '../lib/played-takes';

interface Options {
  /** The take as heard (gain, blind trimming); undefined until its audio is loaded. */
  played: PlayedTake | undefined;
  /** The listener clicked the waveform: it plays from there. */
  onSeek(takeId: string): void;
  register(takeId: string, ws: WaveSurfer | null): void;
}

/**
 * One take's player in the list: known to the list while mounted (`register`), loaded with the
 * take as heard, and played from where the listener clicks its waveform. Returns the URL it plays
 * and where it last moved to.
 */
export function useTakePlayer(ws: WaveSurfer | null, takeId: string, { played, onSeek, register }: Options) {
  const [playedUrl, setPlayedUrl] = useState<string>();
  const [seekedTo, setSeekedTo] = useState<number>();

  useEffect(() => {
    if (!ws) return;
    register(takeId, ws);
    return () => register(takeId, null);
  }, [ws, takeId, register]);

  // The take as heard (gain, blind trimming); position and play state survive a new version of it.
  useEffect(() => {
    if (!ws || !played) return;
    const at = ws.getCurrentTime();
    const wasPlaying = ws.isPlaying();
    let stale = false;
    ws.loadBlob(played.blob)
      .then(() => {
        if (stale) return;
        setPlayedUrl(ws.getMediaElement().src);
        if (at > 0) ws.setTime(Math.min(at, ws.getDuration()));
        if (wasPlaying) void ws.play().catch(() => undefined);
      })
      .catch(() => undefined);
    return () => {
      stale = true;
    };
  }, [ws, played]);

  useEffect(() => ws?.on('interaction', () => onSeek(takeId)), [ws, takeId, onSeek]);
  // Where the player last moved to, as it reports it (tests check that a switch lands on the sentence).
  useEffect(() => ws?.on('seeking', (at) => setSeekedTo(at)), [ws]);

  return { playedUrl, seekedTo };
}
