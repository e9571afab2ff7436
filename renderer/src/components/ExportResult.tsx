import type { Export, SubtitleFormat } from '../api/contract';
import { formatClock } from '../lib/format';

interface Props {
  made: Export;
  onDownload(): void;
  onSubtitles(format: SubtitleFormat): void;
}

/** An export being made, then made: its progress like a job's, what it holds, and its downloads. */
export function ExportResult({ made, onDownload, onSubtitles }: Props) {
  return (
    <div className="export-progress">
      <span role="status" className="small">
        {made.status === 'running' && (
          <>
            <progress max={1} value={made.progress} aria-label="Export progress" /> {Math.floor(made.progress * 100)}%
          </>
        )}
        {made.status === 'done' &&
          `Exported: ${made.chapters.length} chapters, ${formatClock(made.file!.duration_s)}, ${made.loudness?.integrated_lufs} LUFS.`}
        {made.status === 'failed' && made.error?.message}
      </span>
      {made.status === 'done' && (
        <>
          <button type="button" className="primary" onClick={onDownload}>
            Download {made.file!.name}
          </button>
          <button type="button" className="secondary small" onClick={() => onSubtitles('vtt')}>
            Captions (WebVTT)
          </button>
          <button type="button" className="secondary small" onClick={() => onSubtitles('srt')}>
            Captions (SubRip)
          </button>
        </>
      )}
    </div>
  );
}
