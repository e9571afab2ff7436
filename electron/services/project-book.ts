import { ApiError, EXPORT_LIMITS, type ExportRequest, type Project, type ProjectExportBody } from '../contract';

/**
 * The export of a project's audiobook: every chapter's job in order, each a chapter titled as the
 * chapter, tagged with the project's title and author. Every chapter must be rendered and up to
 * date: a book with a chapter missing or stale is refused rather than made.
 */
export function bookOf(project: Project, body: ProjectExportBody): ExportRequest {
  const waiting = project.chapters.filter((c) => c.status !== 'done' || c.needs_render).map((c) => c.index + 1);
  if (waiting.length > 0) {
    const which = waiting.length === 1 ? `Chapter ${waiting[0]} is` : `Chapters ${waiting.join(', ')} are`;
    throw new ApiError(
      'project_not_rendered',
      `${which} not rendered or out of date: render the project, then export once every chapter is done.`,
    );
  }
  if (project.chapters.length > EXPORT_LIMITS.jobs) {
    throw new ApiError(
      'too_many_chapters',
      `An export takes at most ${EXPORT_LIMITS.jobs} jobs; this project has ${project.chapters.length} chapters.`,
    );
  }
  return {
    ...body,
    job_ids: project.chapters.map((c) => c.job_id!),
    title: project.title,
    ...(project.author ? { author: project.author } : {}),
    chapters: project.chapters.map((c) => ({ job_id: c.job_id!, title: c.title, text_offset: 0 })),
  };
}
