import { ApiError, EXPORT_LIMITS, type ExportRequest, type Project, type ProjectExportBody } from '../contract';

/**
 * The export of a project's audiobook: the job of every chapter not left out, in order, each a
 * chapter titled as the chapter, tagged with the project's title and author, with the book's own
 * `cover` when the request sends none. Every such chapter must be rendered and up to date: a book
 * with a chapter missing or stale is refused rather than made.
 */
export function bookOf(project: Project, body: ProjectExportBody, cover: Uint8Array | null): ExportRequest {
  const chapters = project.chapters.filter((c) => !c.excluded);
  if (chapters.length === 0) throw new ApiError('invalid_request', 'Every chapter is left out of the export: include one first.');
  const waiting = chapters.filter((c) => c.status !== 'done' || c.needs_render).map((c) => c.index + 1);
  if (waiting.length > 0) {
    const which = waiting.length === 1 ? `Chapter ${waiting[0]} is` : `Chapters ${waiting.join(', ')} are`;
    throw new ApiError(
      'project_not_rendered',
      `${which} not rendered or out of date: render the project, then export once every chapter is done.`,
    );
  }
  if (chapters.length > EXPORT_LIMITS.jobs) {
    throw new ApiError(
      'too_many_chapters',
      `An export takes at most ${EXPORT_LIMITS.jobs} jobs; this project has ${chapters.length} chapters to export.`,
    );
  }
  return {
    ...body,
    ...(body.cover === undefined && cover ? { cover: Buffer.from(cover).toString('base64') } : {}),
    job_ids: chapters.map((c) => c.job_id!),
    title: project.title,
    ...(project.author ? { author: project.author } : {}),
    chapters: chapters.map((c) => ({ job_id: c.job_id!, title: c.title, text_offset: 0 })),
  };
}
