import { useEffect, useRef } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import { formatClock } from '../lib/format';
import { useApp } from '../store';
import { takeLetter, type CompareTake } from '../store/compare-slice';
import { voiceLabel } from '../store/engines-slice';
import { PauseIcon, PlayIcon } from './PlayerDock';
import { usePlayback, useWaveSurfer } from './use-wavesurfer';

// True scale (not normalised): takes compared side by side show their real levels, volume 0 flat.
const WAVE_OPTIONS = { height: 48, barWidth: 2, barGap: 1, barRadius: 2, normalize: false } as const;

interface Props {
  /** The take's slot (its voice picker). */
  index: number;
  /** Its place in the list, which a blind run shuffles: what keys 1–4 and its letter count. */
  position: number;
  voiceId: string;
  /** Blind and not revealed: the voice is not shown. */
  hidden: boolean;
  take: CompareTake;
  active: boolean;
  onPlay(index: number): void;
  register(index: number, ws: WaveSurfer | null): void;
}

export function CompareTakeRow({ index, position, voiceId, hidden, take, active, onPlay, register }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const ws = useWaveSurfer(container, WAVE_OPTIONS);
  const { playing, time, duration } = usePlayback(ws);
  const voiceName = useApp((s) => voiceLabel(s, voiceId));
  const letter = takeLetter(position);
  const name = hidden ? `take ${letter}` : voiceName;

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
      data-voice={hidden ? undefined : voiceId}
      className={`take${active ? ' active' : ''}`}
      data-state={take.status}
      data-duration={duration.toFixed(3)}
      aria-label={hidden ? `Take ${letter}` : `Take ${position + 1}: ${voiceName}`}
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
            {position + 1}
          </span>
          <strong>{hidden ? `Take ${letter}` : voiceName}</strong>
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
