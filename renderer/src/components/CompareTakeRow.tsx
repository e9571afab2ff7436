import { useRef } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import type { CompareTake } from '../api/contract';
import { formatClock } from '../lib/format';
import { formatLoudness } from '../lib/loudness-match';
import type { PlayedTake } from '../lib/played-takes';
import { PauseIcon, PlayIcon } from './PlayerDock';
import { TakeVerdict } from './TakeVerdict';
import { useTakePlayer } from './use-take-player';
import { usePlayback, useWaveSurfer } from './use-wavesurfer';

// True scale (not normalised): takes compared side by side show their real levels, volume 0 flat.
const WAVE_OPTIONS = { height: 48, barWidth: 2, barGap: 1, barRadius: 2, normalize: false } as const;

interface Props {
  take: CompareTake;
  /** Its place in the text's list, which a blind session shuffles: what keys 1–9 count. */
  position: number;
  /** "Take B" when hidden, else the voice's name. */
  name: string;
  hidden: boolean;
  played: PlayedTake | undefined;
  active: boolean;
  /** The file name a download of it gets. */
  fileName: string;
  onPlay(takeId: string): void;
  /** The listener clicked its waveform: it plays from there. */
  onSeek(takeId: string): void;
  register(takeId: string, ws: WaveSurfer | null): void;
}

export function CompareTakeRow({ take, position, name, hidden, played, active, fileName, onPlay, onSeek, register }: Props) {
  const container = useRef<HTMLDivElement>(null);
  const ws = useWaveSurfer(container, WAVE_OPTIONS);
  const { playing, time, duration } = usePlayback(ws);
  const id = take.take_id;
  const { playedUrl, seekedTo } = useTakePlayer(ws, id, { played, onSeek, register });

  const progress = take.progress.total > 0 ? Math.round((100 * take.progress.done) / take.progress.total) : 0;
  return (
    <li
      data-voice={hidden ? undefined : take.voice}
      data-take={id}
      className={`take${active ? ' active' : ''}`}
      data-state={take.status === 'ready' && !played ? 'loading' : take.status}
      data-duration={duration.toFixed(3)}
      data-loudness={take.loudness_lufs ?? undefined}
      data-gain-db={played?.gainDb.toFixed(2)}
      data-played-url={playedUrl}
      data-seeked-to={seekedTo?.toFixed(3)}
      aria-label={hidden ? name : `Take ${position + 1}: ${name}`}
    >
      <button
        type="button"
        className="play small-play"
        onClick={() => onPlay(id)}
        disabled={!played}
        aria-label={`${playing ? 'Pause' : 'Play'} ${name}`}
      >
        {playing ? <PauseIcon /> : <PlayIcon />}
      </button>
      <div className="take-main">
        <div className="take-title">
          <span className="slot-number" aria-hidden="true">
            {position + 1}
          </span>
          <strong>{name}</strong>
          <span className="muted mono small">
            {formatClock(time)} / {formatClock(duration)}
          </span>
          {take.status === 'ready' && !hidden && (
            <span className="muted small loudness" title="Integrated loudness as synthesized (ITU-R BS.1770), and the gain it plays with">
              {formatLoudness(take.loudness_lufs ?? null)}
              {played?.gainDb ? ` · played ${played.gainDb > 0 ? '+' : '−'}${Math.abs(played.gainDb).toFixed(1)} dB` : ''}
            </span>
          )}
          {take.status === 'running' && <span className="muted small">Synthesizing… {progress}%</span>}
          {take.status === 'pending' && <span className="muted small">Waiting</span>}
          {take.status === 'failed' && (
            <span className="error small" role="alert">
              {take.error?.message ?? 'Failed.'}
            </span>
          )}
        </div>
        <div ref={container} className="waveform" />
        {take.status === 'ready' && <TakeVerdict take={take} name={name} played={played} fileName={fileName} />}
      </div>
    </li>
  );
}
