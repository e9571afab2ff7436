import { useEffect, useRef, useState } from 'react';
import { API, jobAudioFileName } from '../api/contract';
import { audioFileName, saveBlob } from '../lib/download';
import { describeError, formatClock } from '../lib/format';
import { useApp } from '../store';
import type { PlayerSource } from '../store/player-slice';
import { loadJobAudio, type LoadMode } from './load-job-audio';
import { JobReadAlong, ReadAlong } from './ReadAlong';
import { usePlaybackKeys } from './use-playback-keys';
import { usePlayback, useWaveSurfer } from './use-wavesurfer';

const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2];
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

type LoadState = { status: 'loading' } | { status: 'ready'; mode: LoadMode | 'inline' } | { status: 'error'; message: string };

function Player({ source }: { source: PlayerSource }) {
  const container = useRef<HTMLDivElement>(null);
  const ws = useWaveSurfer(container, WAVE_OPTIONS);
  const { playing, time, duration } = usePlayback(ws);
  const client = useApp((s) => s.client);
  const closePlayer = useApp((s) => s.closePlayer);
  // Kept with the key of the source they belong to: a new source reads as loading, with no error,
  // without a reset inside the effect.
  const [loaded, setLoaded] = useState<{ key: number; state: LoadState } | null>(null);
  const load: LoadState = loaded?.key === source.key ? loaded.state : { status: 'loading' };
  const [zoom, setZoom] = useState(0);
  const [speed, setSpeed] = useState(1);
  const [downloadFailure, setDownloadFailure] = useState<{ key: number; message: string } | null>(null);
  const downloadError = downloadFailure?.key === source.key ? downloadFailure.message : null;
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
  usePlaybackKeys(ready ? ws : null);

  const download = async () => {
    setDownloadFailure(null);
    try {
      if (source.kind === 'audio') saveBlob(source.audio.blob, audioFileName(source.audio.voice));
      else if (client)
        saveBlob(
          await client.blob(API.getJobAudio, { params: { id: source.jobId } }),
          jobAudioFileName(source.jobId, source.job.audio?.format),
        );
    } catch (error) {
      setDownloadFailure({ key: source.key, message: describeError(error) });
    }
  };

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
          {downloadError && (
            <span className="error small" role="alert">
              {downloadError}
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
      <div className="dock-controls">
        <label className="mini-field">
          <span>Zoom</span>
          <input
            type="range"
            min={0}
            max={300}
            step={10}
            value={zoom}
            onChange={(e) => setZoom(Number(e.target.value))}
            disabled={!ready}
            aria-label="Zoom"
          />
        </label>
        <label className="mini-field">
          <span>Speed</span>
          <select value={speed} onChange={(e) => setSpeed(Number(e.target.value))} aria-label="Playback speed">
            {SPEEDS.map((s) => (
              <option key={s} value={s}>
                {s}×
              </option>
            ))}
          </select>
        </label>
        <button type="button" className="small secondary" onClick={() => void download()} disabled={!ready} aria-label="Download audio">
          Download
        </button>
        <button type="button" className="icon ghost" onClick={closePlayer} aria-label="Close player">
          ×
        </button>
      </div>
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
