import { useCallback, useEffect } from 'react';
import { MANUSCRIPT_EXTENSIONS, type Project } from '../api/contract';
import { useApp } from '../store';
import { effectiveVoiceId } from '../store/editor-slice';
import { ProjectView } from './ProjectView';

const ACCEPT = MANUSCRIPT_EXTENSIONS.map((e) => `.${e}`).join(',');

/**
 * Projects (store/projects-slice.ts): manuscripts in chapters, each rendered once and again only
 * where it changed (docs/projects.md). The list on the left, the chosen project on the right.
 */
export function ProjectsPanel() {
  const client = useApp((s) => s.client);
  const voiceId = useApp(effectiveVoiceId);
  const projects = useApp((s) => s.projects);
  const chosen = useApp((s) => s.project);
  const error = useApp((s) => s.projectsError);
  const updateProject = useApp((s) => s.updateProject);
  const { loadProjects, createProject, openProject, projectFailed } = useApp.getState();
  const samples = useApp((s) => s.projectSamples);

  // one function per open project: the view's polling depends on it
  const chosenId = chosen?.project_id;
  const onChange = useCallback((project: Project | null) => chosenId && updateProject(chosenId, project), [chosenId, updateProject]);

  // read again for each client: a new key may see another gateway's projects
  useEffect(() => {
    if (client) void loadProjects();
  }, [client, loadProjects]);

  if (!client) return null;

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
              if (file) void createProject(file, voiceId);
              e.target.value = '';
            }}
          />
        </label>
        <p className="hint">
          Word (.docx), EPUB, Markdown or plain text: chapters start at the book’s headings or “Chapter 1” lines; parts, the title page and
          the book’s title, author and cover are kept. Save .doc or .odt files as .docx first.
        </p>
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
                onClick={() => void openProject(p.project_id)}
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
          samples={samples}
          onChange={onChange}
          onListChange={() => void loadProjects()}
          onError={projectFailed}
        />
      ) : (
        <div className="card project-empty">
          <p className="hint">Choose a project, or make one from a manuscript file.</p>
        </div>
      )}
    </div>
  );
}
