import { useEffect, useRef, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import { formatClock } from '../lib/format';
import { useApp } from '../store';
import { takeLetter, type CompareTake } from '../store/compare-slice';
import { voiceLabel } from '../store/engines-slice';
import { PauseIcon, PlayIcon } from './PlayerDock';
import { formatLoudness } from '../lib/loudness-match';
import { wavData, withGain } from '../lib/wav-gain';
import { TakeVerdict } from './TakeVerdict';
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
  /** Gain for loudness-matched listening, dB; undefined while the common level is not known yet. */
  gainDb: number | undefined;
  onPlay(index: number): void;
  register(index: number, ws: WaveSurfer | null): void;
}

export function CompareTakeRow({ index, position, voiceId, hidden, take, active, gainDb, onPlay, register }: Props) {
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

  // What the player holds, for tests and tools: the object URL of the audio as played.
  const [playedUrl, setPlayedUrl] = useState<string>();

  // The take as heard: with its matching gain applied to the samples, so the waveform (true scale)
  // shows the level that plays; the position and play state survive a change of gain.
  useEffect(() => {
    if (!ws || !take.audio || gainDb === undefined) return;
    const data = take.file && gainDb !== 0 ? wavData(take.file) : null;
    const played = data ? new Blob([withGain(take.file!, data, gainDb)], { type: 'audio/wav' }) : take.audio.blob;
    const at = ws.getCurrentTime();
    const wasPlaying = ws.isPlaying();
    let stale = false;
    ws.loadBlob(played)
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
  }, [ws, take.audio, take.file, gainDb]);

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
      data-loudness={take.audio?.loudnessLufs ?? undefined}
      data-gain-db={gainDb?.toFixed(2)}
      data-played-url={playedUrl}
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
          {take.status === 'ready' && take.audio && (
            <span className="muted small loudness" title="Integrated loudness as synthesized (ITU-R BS.1770), and the gain it plays with">
              {formatLoudness(take.audio.loudnessLufs)}
              {gainDb ? ` · played ${gainDb > 0 ? '+' : '−'}${Math.abs(gainDb).toFixed(1)} dB` : ''}
            </span>
          )}
          {take.status === 'loading' && <span className="muted small">Speaking…</span>}
          {take.status === 'error' && (
            <span className="error small" role="alert">
              {take.error}
            </span>
          )}
        </div>
        <div ref={container} className="waveform" />
        {take.status === 'ready' && <TakeVerdict index={index} name={name} rating={take.rating} note={take.note} />}
      </div>
    </li>
  );
}
