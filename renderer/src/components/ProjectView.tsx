import { useState } from 'react';
import { API, type Project } from '../api/contract';
import type { ProgressSample } from '../lib/throughput';
import { useApp } from '../store';
import { ChapterEdits } from './ChapterEdits';
import { ChapterTable } from './ChapterTable';
import { ImportReportNote } from './ImportReportNote';
import { ProjectExport } from './ProjectExport';
import { ProjectRenderControls } from './ProjectRenderControls';
import { ProjectSettingsForm } from './ProjectSettingsForm';
import { RenderDisk } from './RenderDisk';
import { useProjectDisk } from './use-project-disk';
import { useProjectRefresh } from './use-project-refresh';
import { RenderPlanHint } from './RenderPlanHint';
import { useRenderPlan } from './use-render-plan';

interface Props {
  project: Project;
  /** Its render's progress as seen changing (ProjectsPanel), for the time left. */
  samples: readonly ProgressSample[];
  /** The project as it is now; null once deleted. */
  onChange(project: Project | null): void;
  /** Its title, author or existence changed: the list shows them. */
  onListChange(): void;
  onError(error: unknown): void;
}

/** One project: its settings, Render (saying how many chapters it will synthesize), and its chapters. */
export function ProjectView({ project, samples, onChange, onListChange, onError }: Props) {
  const client = useApp((s) => s.client)!;
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const pending = project.chapters.filter((c) => c.needs_render).length;
  const disk = useProjectDisk(project, onError);
  const plan = useRenderPlan(project, onError);
  useProjectRefresh(project, onChange, onError);

  const run = (work: () => Promise<void>) => {
    setBusy(true);
    work()
      .catch(onError)
      .finally(() => setBusy(false));
  };

  const remove = () => {
    if (!window.confirm(`Delete the project “${project.title}” and the audio of its chapters?`)) return;
    run(async () => {
      await client.call(API.deleteProject, { params: { id: project.project_id } });
      onChange(null);
      onListChange();
    });
  };

  return (
    <div className="card project-view">
      <h2>{project.title}</h2>
      <p className="hint">
        From {project.source_name} · {project.chapters.length} {project.chapters.length === 1 ? 'chapter' : 'chapters'}
      </p>
      <ImportReportNote project={project} />
      <ProjectSettingsForm
        project={project}
        disk={disk}
        busy={busy}
        run={run}
        onChange={onChange}
        onListChange={onListChange}
        onStatus={setStatus}
      />
      <div className="project-actions">
        <ProjectRenderControls project={project} samples={samples} busy={busy} run={run} onChange={onChange} onStatus={setStatus} />
        {plan && pending > 0 && project.render.state !== 'rendering' && <RenderPlanHint plan={plan} project={project} />}
        {disk && pending > 0 && <RenderDisk disk={disk} format={project.format} />}
        <button
          type="button"
          className="secondary small"
          onClick={() => useApp.getState().openLexiconFor({ voice: project.voice, project: project.title })}
        >
          Pronunciations…
        </button>
        <button type="button" className="secondary danger small" onClick={remove} disabled={busy}>
          Delete project
        </button>
      </div>
      {status && (
        <p role="status" className="hint">
          {status}
        </p>
      )}
      <ProjectExport project={project} disk={disk} onError={onError} />
      <ChapterTable project={project} run={run} onChange={onChange} onError={onError} />
      <ChapterEdits project={project} onChange={onChange} onError={onError} />
    </div>
  );
}
