import { useState } from 'react';
import type { ExportFormat, Project } from '../api/contract';
import { formatClock } from '../lib/format';
import { useApp } from '../store';
import { useExport } from './use-export';

const FORMATS: Record<ExportFormat, string> = { m4b: 'M4B', mp3: 'MP3', zip: 'ZIP' };

/**
 * A project's audiobook: its rendered chapters in order, titled by its chapters, tagged with its
 * title and author (docs/projects.md); progress like a job's, then the download.
 */
export function ProjectExport({ project, onError }: { project: Project; onError(error: unknown): void }) {
  const client = useApp((s) => s.client)!;
  const [format, setFormat] = useState<ExportFormat>('m4b');
  const { made, running, follow, download } = useExport(onError);
  const ready = project.chapters.every((c) => c.status === 'done' && !c.needs_render);

  const start = () => client.exportProject(project.project_id, { format }).then((accepted) => follow(accepted.export_id), onError);

  return (
    <div className="project-export">
      <label>
        Export as{' '}
        <select value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)} disabled={running !== null}>
          {Object.entries(FORMATS).map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <button type="button" className="secondary" onClick={() => void start()} disabled={!ready || running !== null}>
        Export {FORMATS[format]}
      </button>
      {!ready && <span className="hint">Render every chapter to export.</span>}
      {made && (
        <span role="status" className="hint">
          {made.status === 'running' && (
            <>
              <progress max={1} value={made.progress} aria-label="Export progress" /> {Math.floor(made.progress * 100)}%
            </>
          )}
          {made.status === 'done' && `Exported: ${made.chapters.length} chapters, ${formatClock(made.file!.duration_s)}.`}
          {made.status === 'failed' && made.error?.message}
        </span>
      )}
      {made?.status === 'done' && (
        <button type="button" className="primary" onClick={download}>
          Download {made.file!.name}
        </button>
      )}
    </div>
  );
}
