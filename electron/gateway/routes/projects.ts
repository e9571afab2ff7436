import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import {
  ChapterEditParams,
  ChapterParams,
  ChapterPatch,
  ChapterSplit,
  ErrorBody,
  ExportAccepted,
  exportPath,
  ManuscriptFile,
  Project,
  ProjectCreate,
  ProjectDisk,
  ProjectExportBody,
  ProjectList,
  ProjectParams,
  ProjectPatch,
  projectPath,
  RenderResult,
} from '../../contract';
import type { ProjectService } from '../../services/projects';
import type { GatewaySlots } from '../slots';
import { holdExport } from './hold';

/** Routes of projects (docs/projects.md), relative to TTS_ROOT; the TTS key, like jobs. */
export const projectRoutes: FastifyPluginAsyncTypebox<{ projects: ProjectService; slots: GatewaySlots }> = async (
  app,
  { projects, slots },
) => {
  const tags = ['projects'];
  const params = ProjectParams;

  app.get('/projects', {
    schema: { operationId: 'listProjects', tags, summary: 'Projects, the last changed first', response: { 200: ProjectList } },
    handler: async () => projects.list(),
  });

  app.post('/projects', {
    schema: {
      operationId: 'createProject',
      tags,
      summary: 'A new project from a manuscript file (its text and name), cut into chapters',
      body: ProjectCreate,
      response: { 201: Project, 400: ErrorBody, 409: ErrorBody, 413: ErrorBody, 415: ErrorBody, 422: ErrorBody },
    },
    handler: async (request, reply) => {
      const project = await projects.create(request.body);
      return reply.code(201).header('location', projectPath(project.project_id)).send(project);
    },
  });

  app.get('/projects/:id', {
    schema: {
      operationId: 'getProject',
      tags,
      summary: 'A project, its chapters and their audio',
      params,
      response: { 200: Project, 404: ErrorBody },
    },
    handler: async (request) => projects.get(request.params.id),
  });

  app.get('/projects/:id/disk', {
    schema: {
      operationId: 'getProjectDisk',
      tags,
      summary: "What the project's audio takes on disk, estimated before a render or an export, and what is free",
      params,
      response: { 200: ProjectDisk, 404: ErrorBody },
    },
    handler: async (request) => projects.disk(request.params.id),
  });

  app.patch('/projects/:id', {
    schema: {
      operationId: 'changeProject',
      tags,
      summary: "Change a project's title, author, voice, prosody or format",
      params,
      body: ProjectPatch,
      response: { 200: Project, 400: ErrorBody, 404: ErrorBody, 422: ErrorBody },
    },
    handler: async (request) => projects.update(request.params.id, request.body),
  });

  app.put('/projects/:id/manuscript', {
    schema: {
      operationId: 'replaceManuscript',
      tags,
      summary: 'Replace the manuscript; chapters whose text is unchanged keep their audio',
      params,
      body: ManuscriptFile,
      response: { 200: Project, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody, 415: ErrorBody },
    },
    handler: async (request) => projects.replaceManuscript(request.params.id, request.body),
  });

  app.delete('/projects/:id', {
    schema: {
      operationId: 'deleteProject',
      tags,
      summary: "Delete a project and its chapters' jobs",
      params,
      response: { 204: { type: 'null' }, 404: ErrorBody },
    },
    handler: async (request, reply) => {
      await projects.remove(request.params.id);
      return reply.code(204).send(null);
    },
  });

  app.post('/projects/:id/render', {
    schema: {
      operationId: 'renderProject',
      tags,
      summary: 'Queue a job for each chapter whose audio is missing or out of date',
      params,
      response: { 200: RenderResult, 404: ErrorBody, 413: ErrorBody, 422: ErrorBody, 429: ErrorBody, 507: ErrorBody },
    },
    handler: async (request) => projects.render(request.params.id),
  });

  app.delete('/projects/:id/chapters/:index/edits/:n', {
    schema: {
      operationId: 'dismissChapterEdit',
      tags,
      summary: 'Forget a stale sentence edit (the manuscript changed under it)',
      params: ChapterEditParams,
      response: { 200: Project, 400: ErrorBody, 404: ErrorBody },
    },
    handler: async (request) => projects.dismissEdit(request.params.id, request.params.index, request.params.n),
  });

  const actions = {
    pause: 'Pause the chapters being rendered; their finished chunks are kept',
    resume: 'Resume the paused chapters, in reading order',
    cancel: 'Stop the chapters being rendered or paused; their finished chunks are kept, and the next render continues them',
  } as const;
  for (const [action, summary] of Object.entries(actions) as [keyof typeof actions, string][]) {
    app.post(`/projects/:id/${action}`, {
      schema: { operationId: `${action}Project`, tags, summary, params, response: { 200: Project, 404: ErrorBody, 429: ErrorBody } },
      handler: async (request) => projects[action](request.params.id),
    });
  }
  app.patch('/projects/:id/chapters/:index', {
    schema: {
      operationId: 'changeChapter',
      tags,
      summary: 'Rename a chapter (what is said stays), or leave it out of render and export',
      params: ChapterParams,
      body: ChapterPatch,
      response: { 200: Project, 400: ErrorBody, 404: ErrorBody },
    },
    handler: async (request) => projects.changeChapter(request.params.id, request.params.index, request.body),
  });

  app.post('/projects/:id/chapters/:index/merge', {
    schema: {
      operationId: 'mergeChapter',
      tags,
      summary: 'Merge a chapter with the one after it; the merged chapter is rendered again',
      params: ChapterParams,
      response: { 200: Project, 400: ErrorBody, 404: ErrorBody },
    },
    handler: async (request) => projects.rearrangeChapter(request.params.id, request.params.index, { merge: true }),
  });

  app.post('/projects/:id/chapters/:index/split', {
    schema: {
      operationId: 'splitChapter',
      tags,
      summary: 'Split a chapter before one of its paragraphs; both halves are rendered again',
      params: ChapterParams,
      body: ChapterSplit,
      response: { 200: Project, 400: ErrorBody, 404: ErrorBody, 413: ErrorBody },
    },
    handler: async (request) => projects.rearrangeChapter(request.params.id, request.params.index, { split: request.body }),
  });

  app.post('/projects/:id/export', {
    schema: {
      operationId: 'exportProject',
      tags,
      summary: "Export the project's chapters as an audiobook, titled and tagged as the project",
      params,
      body: ProjectExportBody,
      response: {
        202: ExportAccepted,
        400: ErrorBody,
        404: ErrorBody,
        409: ErrorBody,
        410: ErrorBody,
        413: ErrorBody,
        429: ErrorBody,
        507: ErrorBody,
      },
    },
    handler: async (request, reply) => {
      const made = await projects.exportBook(request.params.id, request.body, holdExport(slots, request));
      const poll = exportPath(made.export_id);
      return reply
        .code(202)
        .header('location', poll)
        .send({ export_id: made.export_id, poll, status: 'running' as const });
    },
  });
};
