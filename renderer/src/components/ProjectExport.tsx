import { API, exportSeconds, type Project, type ProjectDisk } from '../api/contract';
import { useApp } from '../store';
import { exportFits, ExportOptionsFields, useExportChoices } from './ExportOptionsFields';
import { ExportResult } from './ExportResult';
import { useExport } from './use-export';

const FORMAT_NAMES = { m4b: 'M4B', mp3: 'MP3', zip: 'ZIP' } as const;

/**
 * A project's audiobook: its rendered chapters in order, titled by its chapters, tagged with its
 * title and author (docs/projects.md), with the export's options (ExportOptionsFields, shared with
 * the Studio's export); progress like a job's, then the downloads.
 */
export function ProjectExport({ project, disk, onError }: { project: Project; disk: ProjectDisk | null; onError(error: unknown): void }) {
  const client = useApp((s) => s.client)!;
  const { choices, change, body } = useExportChoices();
  const { made, running, follow, download, subtitles } = useExport(onError);
  const ready = project.chapters.every((c) => c.status === 'done' && !c.needs_render);
  const seconds = exportSeconds(disk?.book_seconds ?? 0, project.chapters.length, choices.roomToneMs);
  const fits = exportFits(seconds, choices.format, disk?.free_bytes);

  const start = async () => {
    try {
      const accepted = await client.call(API.exportProject, { params: { id: project.project_id }, body: await body() });
      await follow(accepted.export_id);
    } catch (error) {
      onError(error);
    }
  };

  return (
    <fieldset className="project-export" disabled={running !== null}>
      <legend>Audiobook</legend>
      <ExportOptionsFields choices={choices} onChange={change} bookSeconds={seconds} freeBytes={disk?.free_bytes} />
      <div className="project-export-actions">
        <button type="button" className="secondary" onClick={() => void start()} disabled={!ready || !fits}>
          Export {FORMAT_NAMES[choices.format]}
        </button>
        {!ready && <span className="hint">Render every chapter to export.</span>}
      </div>
      {made && <ExportResult made={made} onDownload={download} onSubtitles={subtitles} />}
    </fieldset>
  );
}
