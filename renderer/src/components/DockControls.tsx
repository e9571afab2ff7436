const SPEEDS = [0.5, 0.75, 1, 1.25, 1.5, 2];

interface Props {
  /** A source is loaded: zoom and download work. */
  ready: boolean;
  zoom: number;
  setZoom(zoom: number): void;
  speed: number;
  setSpeed(speed: number): void;
  onDownload(): void;
  onClose(): void;
}

/** The player's controls at the right of the dock: zoom, speed, download, close. */
export function DockControls({ ready, zoom, setZoom, speed, setSpeed, onDownload, onClose }: Props) {
  return (
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
      <button type="button" className="small secondary" onClick={onDownload} disabled={!ready} aria-label="Download audio">
        Download
      </button>
      <button type="button" className="icon ghost" onClick={onClose} aria-label="Close player">
        ×
      </button>
    </div>
  );
}
