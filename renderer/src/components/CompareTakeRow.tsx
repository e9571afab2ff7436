import { useEffect, useRef } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import { formatClock } from '../lib/format';
import { useApp } from '../store';
import type { CompareTake } from '../store/compare-slice';
import { voiceLabel } from '../store/engines-slice';
import { PauseIcon, PlayIcon } from './PlayerDock';
import { usePlayback, useWaveSurfer } from './use-wavesurfer';

// True scale (not normalised): takes compared side by side show their real levels, volume 0 flat.
const WAVE_OPTIONS = { height: 48, barWidth: 2, barGap: 1, barRadius: 2, normalize: false } as const;

interface Props {
  index: number;
  voiceId: string;
  take: CompareTake;
  active: boolean;
  onPlay(index: number): void;
  register(index: number, ws: WaveSurfer | null): void;
}

export function CompareTakeRow({ index, voiceId, take, active, onPlay, register }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const ws = useWaveSurfer(container, WAVE_OPTIONS);
  const { playing, time, duration } = usePlayback(ws);
  const name = useApp((s) => voiceLabel(s, voiceId));

  useEffect(() => {
    if (!ws) return;
    register(index, ws);
    return () => register(index, null);
  }, [ws, index, register]);

  useEffect(() => {
    if (ws && take.audio) void ws.loadBlob(take.audio.blob).catch(() => undefined);
  }, [ws, take.audio]);

  // Clicking the waveform seeks; make that row the active one so switching continues from there.
  useEffect(() => {
    if (!ws) return;
    return ws.on('interaction', () => {
      if (!active) onPlay(index);
    });
  }, [ws, active, index, onPlay]);

  return (
    <li
      className={`take${active ? ' active' : ''}`}
      data-state={take.status}
      data-duration={duration.toFixed(3)}
      aria-label={`Take ${index + 1}: ${name}`}
    >
      <button
        type="button"
        className="play small-play"
        onClick={() => onPlay(index)}
        disabled={take.status !== 'ready'}
        aria-label={`${playing ? 'Pause' : 'Play'} ${name}`}
      >
        {playing ? <PauseIcon /> : <PlayIcon />}
      </button>
      <div className="take-main">
        <div className="take-title">
          <span className="slot-number" aria-hidden="true">
            {index + 1}
          </span>
          <strong>{name}</strong>
          <span className="muted mono small">
            {formatClock(time)} / {formatClock(duration)}
          </span>
          {take.status === 'loading' && <span className="muted small">Speaking…</span>}
          {take.status === 'error' && (
            <span className="error small" role="alert">
              {take.error}
            </span>
          )}
        </div>
        <div ref={container} className="waveform" />
      </div>
    </li>
  );
}
