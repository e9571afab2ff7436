import { useCallback, useEffect, useState } from 'react';
import { MANUSCRIPT_EXTENSIONS, type Project, type ProjectSummary } from '../api/contract';
import { describeError } from '../lib/format';
import { addSample, type ProgressSample } from '../lib/throughput';
import { manuscriptFile } from '../lib/manuscript-file';
import { useApp } from '../store';
import { effectiveVoiceId } from '../store/editor-slice';
import { ProjectView } from './ProjectView';

const ACCEPT = MANUSCRIPT_EXTENSIONS.map((e) => `.${e}`).join(',');

/**
 * Projects: manuscripts in chapters, each rendered once and again only where it changed
 * (docs/projects.md). The list on the left, the chosen project on the right.
 */
export function ProjectsPanel() {
  const client = useApp((s) => s.client);
  const voiceId = useApp(effectiveVoiceId);
  const [projects, setProjects] = useState<ProjectSummary[]>([]);
  const [shown, setShown] = useState<{ project: Project; samples: ProgressSample[] } | null>(null);
  const chosen = shown?.project ?? null;
  /** Shows a project as it is now; each new read of its render's progress is a sample for the time left. */
  const setChosen = useCallback((project: Project | null) => {
    const sample = project && { at: Date.now(), done: project.render.chunks_done };
    setShown((was) => {
      if (!project || !sample) return null;
      return { project, samples: was?.project.project_id === project.project_id ? addSample(was.samples, sample) : [sample] };
    });
  }, []);
  const [error, setError] = useState<string | null>(null);

  const showError = useCallback((problem: unknown) => {
    if (!useApp.getState().noteAuthError(problem)) setError(describeError(problem));
  }, []);
  const attempt = useCallback(
    (work: () => Promise<void>) => {
      setError(null);
      return work().catch(showError);
    },
    [showError],
  );
  const refreshList = useCallback(async () => {
    if (client) setProjects((await client.projects()).projects);
  }, [client]);

  useEffect(() => {
    if (!client) return;
    let live = true;
    client.projects().then(
      (list) => live && setProjects(list.projects),
      (problem: unknown) => live && showError(problem),
    );
    return () => {
      live = false;
    };
  }, [client, showError]);

  if (!client) return null;

  const create = (file: File) =>
    void attempt(async () => {
      const project = await client.createProject({
        manuscript: await manuscriptFile(file),
        ...(voiceId ? { voice: voiceId } : {}),
      });
      setChosen(project);
      await refreshList();
    });

  const open = (id: string) => void attempt(async () => setChosen(await client.project(id)));

  return (
    <div className="projects">
      <div className="card project-list">
        <h2>Projects</h2>
        <label className="file-button">
          New project from a file…
          <input
            type="file"
            accept={ACCEPT}
            className="visually-hidden"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) create(file);
              e.target.value = '';
            }}
          />
        </label>
        <p className="hint">Plain text, Markdown or EPUB: chapters start at # and ## headings, “Chapter 1” lines, or an EPUB’s sections.</p>
        {error && (
          <p role="alert" className="error">
            {error}
          </p>
        )}
        <ul aria-label="Projects">
          {projects.map((p) => (
            <li key={p.project_id}>
              <button
                type="button"
                className={`project-item${chosen?.project_id === p.project_id ? ' selected' : ''}`}
                aria-current={chosen?.project_id === p.project_id ? 'true' : undefined}
                onClick={() => open(p.project_id)}
              >
                <span className="project-title">{p.title}</span>
                <span className="hint">
                  {p.chapter_count} {p.chapter_count === 1 ? 'chapter' : 'chapters'}
                  {p.author ? ` · ${p.author}` : ''}
                </span>
              </button>
            </li>
          ))}
          {projects.length === 0 && <li className="hint">No projects yet.</li>}
        </ul>
      </div>
      {chosen ? (
        <ProjectView
          key={chosen.project_id}
          project={chosen}
          samples={shown!.samples}
          onChange={setChosen}
          onListChange={() => void attempt(refreshList)}
          onError={showError}
        />
      ) : (
        <div className="card project-empty">
          <p className="hint">Choose a project, or make one from a manuscript file.</p>
        </div>
      )}
    </div>
  );
}
