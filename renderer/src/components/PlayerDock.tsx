import { useRef } from 'react';
import { formatClock } from '../lib/format';
import { useApp } from '../store';
import type { PlayerSource } from '../store/player-slice';
import { DockControls } from './DockControls';
import { JobReadAlong, ReadAlong } from './ReadAlong';
import { usePlaybackKeys } from './use-playback-keys';
import { usePlayerAudio } from './use-player-audio';
import { usePlayerDownload } from './use-player-download';
import { usePlayback, useWaveSurfer } from './use-wavesurfer';

// Module constant: the options object must not change between renders. True scale, not normalised,
// so a take at volume 0.5 looks half as loud as one at 1.
const WAVE_OPTIONS = {
  height: 56,
  barWidth: 2,
  barGap: 1,
  barRadius: 2,
  normalize: false,
  dragToSeek: true,
  hideScrollbar: false,
} as const;

/** The player at the bottom of the window: inline results, previews and finished jobs. */
export function PlayerDock() {
  const current = useApp((s) => s.current);
  if (!current) return null;
  return <Player source={current} />;
}

function Player({ source }: { source: PlayerSource }) {
  const container = useRef<HTMLDivElement>(null);
  const ws = useWaveSurfer(container, WAVE_OPTIONS);
  const { playing, time, duration } = usePlayback(ws);
  const closePlayer = useApp((s) => s.closePlayer);
  const { load, ready, zoom, setZoom, speed, setSpeed } = usePlayerAudio(ws, source);
  const download = usePlayerDownload(source);
  usePlaybackKeys(ready ? ws : null);

  return (
    <footer
      className="dock"
      aria-label="Player"
      data-state={load.status}
      data-mode={load.status === 'ready' ? load.mode : undefined}
      data-duration={duration.toFixed(3)}
      data-time={time.toFixed(2)}
    >
      <button type="button" className="play" onClick={() => void ws?.playPause()} disabled={!ready} aria-label={playing ? 'Pause' : 'Play'}>
        {playing ? <PauseIcon /> : <PlayIcon />}
      </button>
      <div className="dock-main">
        <div className="dock-title">
          <strong title={source.title}>{source.title}</strong>
          <span className="time mono" aria-label="Time">
            {formatClock(time)} / {formatClock(duration)}
          </span>
          {load.status === 'loading' && <span className="muted small">Loading…</span>}
          {load.status === 'error' && (
            <span className="error small" role="alert">
              {load.message}
            </span>
          )}
          {download.error && (
            <span className="error small" role="alert">
              {download.error}
            </span>
          )}
        </div>
        <div
          ref={container}
          className="waveform"
          role="slider"
          tabIndex={0}
          aria-label="Playback position"
          aria-valuemin={0}
          aria-valuemax={Math.round(duration)}
          aria-valuenow={Math.round(time)}
          aria-valuetext={`${formatClock(time)} of ${formatClock(duration)}`}
        />
        {source.kind === 'job' && ready && <JobReadAlong key={source.key} jobId={source.jobId} ws={ws} time={time} />}
        {source.kind === 'audio' && ready && source.audio.timings && <ReadAlong timings={source.audio.timings} ws={ws} time={time} />}
      </div>
      <DockControls
        ready={ready}
        zoom={zoom}
        setZoom={setZoom}
        speed={speed}
        setSpeed={setSpeed}
        onDownload={() => void download.save()}
        onClose={closePlayer}
      />
    </footer>
  );
}

export const PlayIcon = () => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path d="M8 5.5v13l11-6.5z" fill="currentColor" />
  </svg>
);
export const PauseIcon = () => (
  <svg viewBox="0 0 24 24" width="20" height="20" aria-hidden="true">
    <path d="M7 5h3.5v14H7zM13.5 5H17v14h-3.5z" fill="currentColor" />
  </svg>
);
