import { API } from '../api/contract';
import type { Project, ProjectSummary } from '../api/contract';
import { describeError } from '../lib/format';
import { addSample, type ProgressSample } from '../lib/throughput';
import { manuscriptFile } from '../lib/manuscript-file';
import { request, type Work } from './request';
import type { SliceCreator } from './types';

/** Projects (docs/projects.md): the list, and the one open beside it. */
export interface ProjectsSlice {
  projects: ProjectSummary[];
  /** The open project as last read; null for none. */
  project: Project | null;
  /** Each read of the open project's render progress, for its time left (lib/throughput.ts). */
  projectSamples: ProgressSample[];
  /** The last project request's error, until the next list or project request. */
  projectsError: string | null;
  loadProjects(): Promise<void>;
  /** Makes a project of a manuscript file (text, Markdown, EPUB, Word) and opens it. */
  createProject(file: File, voice: string): Promise<boolean>;
  openProject(id: string): Promise<void>;
  /** Project `id` as it is now (after a change, or read again while it renders); null once deleted. Ignored once another is open. */
  updateProject(id: string, project: Project | null): void;
  /** Shows an error of a request about the open project (a rejected key goes to the key prompt). */
  projectFailed(error: unknown): void;
}

export const createProjectsSlice: SliceCreator<ProjectsSlice> = (set, get) => {
  /** The project asked for last: an earlier one answering late is not opened. */
  let asked: string | null = null;
  const projectRequest = <T>(work: Work<T>) => {
    set({ projectsError: null });
    return request(get, work, (message) => set({ projectsError: message }));
  };
  const open = (project: Project) => {
    asked = project.project_id;
    const sample = { at: Date.now(), done: project.render.chunks_done };
    const same = get().project?.project_id === project.project_id;
    set({ project, projectSamples: same ? addSample(get().projectSamples, sample) : [sample] });
  };

  return {
    projects: [],
    project: null,
    projectSamples: [],
    projectsError: null,

    async loadProjects() {
      const list = await projectRequest((client) => client.call(API.listProjects));
      if (list) set({ projects: list.projects });
    },

    async createProject(file, voice) {
      const made = await projectRequest(async (client) =>
        client.call(API.createProject, { body: { manuscript: await manuscriptFile(file), ...(voice ? { voice } : {}) } }),
      );
      if (!made) return false;
      open(made);
      await get().loadProjects();
      return true;
    },

    async openProject(id) {
      asked = id;
      const project = await projectRequest((client) => client.call(API.getProject, { params: { id } }));
      if (project && asked === id) open(project);
    },

    updateProject(id, project) {
      if (get().project?.project_id !== id) return;
      if (project) open(project);
      else set({ project: null, projectSamples: [] });
    },

    projectFailed(error) {
      set({ projectsError: describeError(error) });
    },
  };
};
