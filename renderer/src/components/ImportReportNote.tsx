import type { Project } from '../api/contract';

/**
 * What the import made of the manuscript: "15 chapters, 2 parts, front matter: title page, dedication",
 * the voice it chose and why, and what to check.
 */
export function ImportReportNote({ project }: { project: Project }) {
  const report = project.import_report;
  if (!report) return null;
  return (
    <div className="import-report" role="note" aria-label="Import report">
      <p className="hint">
        Imported: {report.summary}
        {project.language ? ` · language ${project.language}` : ''}
        {project.has_cover ? ' · with its cover' : ''}.
      </p>
      {report.voice && (
        <p className="hint">
          Voice: {report.voice.name}, {report.voice.reason}.
        </p>
      )}
      {report.notes.map((note) => (
        <p key={note} className="hint warning">
          {note}
        </p>
      ))}
    </div>
  );
}
