import type { FastifyPluginAsync } from 'fastify';
import { API, projectPath } from '../../contract';
import type { ProjectService } from '../../services/projects';
import { serve } from '../serve-route';
import type { GatewaySlots } from '../slots';
import { holdExport } from './hold';
import { sendExportAccepted } from './replies';

/** Routes of projects (docs/projects.md), the TTS key, like jobs. */
export const projectRoutes: FastifyPluginAsync<{ projects: ProjectService; slots: GatewaySlots }> = async (app, { projects, slots }) => {
  serve(app, API.listProjects, async () => projects.list());

  serve(app, API.createProject, async (request, reply) => {
    const project = await projects.create(request.body);
    return reply.code(201).header('location', projectPath(project.project_id)).send(project);
  });

  serve(app, API.getProject, async (request) => projects.get(request.params.id));

  serve(app, API.getProjectProgress, async (request) => projects.progress(request.params.id));

  serve(app, API.getProjectDisk, async (request) => projects.disk(request.params.id));

  serve(app, API.getRenderPlan, async (request) => projects.renderPlan(request.params.id));

  serve(app, API.changeProject, async (request) => projects.update(request.params.id, request.body));

  serve(app, API.replaceManuscript, async (request) => projects.replaceManuscript(request.params.id, request.body));

  serve(app, API.deleteProject, async (request, reply) => {
    await projects.remove(request.params.id);
    return reply.code(204).send(null);
  });

  serve(app, API.renderProject, async (request) => projects.render(request.params.id));

  serve(app, API.dismissChapterEdit, async (request) => projects.dismissEdit(request.params.id, request.params.index, request.params.n));

  for (const action of ['pause', 'resume', 'cancel'] as const) {
    serve(app, API[`${action}Project`], async (request) => projects[action](request.params.id));
  }
  serve(app, API.changeChapter, async (request) => projects.changeChapter(request.params.id, request.params.index, request.body));

  serve(app, API.mergeChapter, async (request) => projects.rearrangeChapter(request.params.id, request.params.index, { merge: true }));

  serve(app, API.splitChapter, async (request) =>
    projects.rearrangeChapter(request.params.id, request.params.index, { split: request.body }),
  );

  serve(app, API.exportProject, async (request, reply) => {
    const made = await projects.exportBook(request.params.id, request.body, holdExport(slots, request));
    return sendExportAccepted(reply, made.export_id);
  });
};
