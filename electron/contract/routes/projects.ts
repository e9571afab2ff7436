import { Type } from 'typebox';
import { ExportAccepted } from '../exports';
import { TTS_ROOT } from '../paths';
import {
  ChapterEditParams,
  ChapterParams,
  ChapterPatch,
  ChapterSplit,
  ManuscriptFile,
  Project,
  ProjectCreate,
  ProjectDisk,
  ProjectExportBody,
  ProjectList,
  ProjectParams,
  ProjectPatch,
  ProjectRenderProgress,
  RenderResult,
} from '../projects';
import { RenderPlan } from '../render-plan';
import { pathOf, routeGroup } from './route';

const one = `${TTS_ROOT}/projects/:id`;
const params = ProjectParams;

/** Projects (docs/projects.md); the TTS key, like jobs. */
export const projectsApi = routeGroup('projects', {
  listProjects: {
    method: 'GET',
    path: `${TTS_ROOT}/projects`,
    summary: 'Projects, the last changed first',
    responses: { 200: ProjectList },
  },
  createProject: {
    method: 'POST',
    path: `${TTS_ROOT}/projects`,
    summary: 'A new project from a manuscript file (its text and name), cut into chapters',
    body: ProjectCreate,
    responses: { 201: Project },
    errors: [409, 422],
  },
  getProject: {
    method: 'GET',
    path: one,
    summary: 'A project, its chapters and their audio',
    params,
    responses: { 200: Project },
    errors: [404],
  },
  getProjectProgress: {
    method: 'GET',
    path: `${one}/progress`,
    summary: "Where the project's render stands, chapter by chapter, without their texts: for following a render",
    params,
    responses: { 200: ProjectRenderProgress },
    errors: [404],
  },
  getProjectDisk: {
    method: 'GET',
    path: `${one}/disk`,
    summary: "What the project's audio takes on disk, estimated before a render or an export, and what is free",
    params,
    responses: { 200: ProjectDisk },
    errors: [404],
  },
  getRenderPlan: {
    method: 'GET',
    path: `${one}/render-plan`,
    summary: 'What a render would synthesize now: the chapters it would queue and their sentences not already made, and about how long',
    params,
    responses: { 200: RenderPlan },
    errors: [404, 422],
  },
  changeProject: {
    method: 'PATCH',
    path: one,
    summary: "Change a project's title, author, voice, prosody or format",
    params,
    body: ProjectPatch,
    responses: { 200: Project },
    errors: [404, 422],
  },
  replaceManuscript: {
    method: 'PUT',
    path: `${one}/manuscript`,
    summary: 'Replace the manuscript; chapters whose text is unchanged keep their audio',
    params,
    body: ManuscriptFile,
    responses: { 200: Project },
    errors: [404],
  },
  deleteProject: {
    method: 'DELETE',
    path: one,
    summary: "Delete a project and its chapters' jobs",
    params,
    responses: { 204: Type.Null() },
    errors: [404],
  },
  renderProject: {
    method: 'POST',
    path: `${one}/render`,
    summary: 'Queue a job for each chapter whose audio is missing or out of date',
    params,
    responses: { 200: RenderResult },
    errors: [404, 413, 422, 429, 507],
  },
  dismissChapterEdit: {
    method: 'DELETE',
    path: `${one}/chapters/:index/edits/:n`,
    summary: 'Forget a stale sentence edit (the manuscript changed under it)',
    params: ChapterEditParams,
    responses: { 200: Project },
    errors: [400, 404],
  },
  pauseProject: {
    method: 'POST',
    path: `${one}/pause`,
    summary: 'Pause the chapters being rendered; their finished chunks are kept',
    params,
    responses: { 200: Project },
    errors: [404, 429],
  },
  resumeProject: {
    method: 'POST',
    path: `${one}/resume`,
    summary: 'Resume the paused chapters, in reading order',
    params,
    responses: { 200: Project },
    errors: [404, 429],
  },
  cancelProject: {
    method: 'POST',
    path: `${one}/cancel`,
    summary: 'Stop the chapters being rendered or paused; their finished chunks are kept, and the next render continues them',
    params,
    responses: { 200: Project },
    errors: [404, 429],
  },
  changeChapter: {
    method: 'PATCH',
    path: `${one}/chapters/:index`,
    summary: 'Rename a chapter (what is said stays), or leave it out of render and export',
    params: ChapterParams,
    body: ChapterPatch,
    responses: { 200: Project },
    errors: [400, 404],
  },
  mergeChapter: {
    method: 'POST',
    path: `${one}/chapters/:index/merge`,
    summary: 'Merge a chapter with the one after it; the merged chapter is rendered again',
    params: ChapterParams,
    responses: { 200: Project },
    errors: [400, 404],
  },
  splitChapter: {
    method: 'POST',
    path: `${one}/chapters/:index/split`,
    summary: 'Split a chapter before one of its paragraphs; both halves are rendered again',
    params: ChapterParams,
    body: ChapterSplit,
    responses: { 200: Project },
    errors: [400, 404, 413],
  },
  exportProject: {
    method: 'POST',
    path: `${one}/export`,
    summary: "Export the project's chapters as an audiobook, titled and tagged as the project",
    params,
    body: ProjectExportBody,
    responses: { 202: ExportAccepted },
    errors: [404, 409, 410, 429, 507],
  },
});

export const PROJECTS_PATH = projectsApi.listProjects.path;
export const projectPath = (id: string) => pathOf(projectsApi.getProject, { id });
