import { useEffect } from 'react';
import { API, type Chapter, type Project, type ProjectRenderProgress } from '../api/contract';
import { useApp } from '../store';

/** How often a project with chapters rendering is read again. */
const POLL_MS = 1000;

/**
 * Follows a project's render: while its chapters render, their states each second from the light
 * `/progress` (a 15-hour book's project is a megabyte of JSON, its progress a few kilobytes), the
 * whole project once the render ends; and the whole project when one of its chapters is played
 * anew: a sentence edited in the player changed that chapter.
 */
export function useProjectRefresh(project: Project, onChange: (project: Project) => void, onError: (error: unknown) => void): void {
  const client = useApp((s) => s.client)!;
  const active = project.render.state === 'rendering';
  const played = useApp((s) => (s.current?.kind === 'job' ? s.current : null));

  useEffect(() => {
    if (!active) return;
    const params = { params: { id: project.project_id } };
    const timer = setTimeout(
      () =>
        client
          .call(API.getProjectProgress, params)
          .then((progress) => {
            const followed = progress.render.state === 'rendering' ? withProgress(project, progress) : null;
            return followed ?? client.call(API.getProject, params);
          })
          .then(onChange, onError),
      POLL_MS,
    );
    return () => clearTimeout(timer);
  }, [active, client, project, onChange, onError]);

  useEffect(() => {
    if (!played || !project.chapters.some((c) => c.job_id === played.jobId)) return;
    client.call(API.getProject, { params: { id: project.project_id } }).then(onChange, onError);
    // on each new source only (a sentence edit plays the job again)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [played?.key]);
}

/** The project with its chapters' states as `progress` has them; null when its chapters changed meanwhile (read it whole). */
export function withProgress(project: Project, progress: ProjectRenderProgress): Project | null {
  if (progress.chapters.length !== project.chapters.length) return null;
  const chapters = project.chapters.map((chapter, i): Chapter => {
    const { title, text, characters, edits, part, front_matter } = chapter;
    return { ...progress.chapters[i]!, title, text, characters, edits, ...(part === undefined ? {} : { part }), front_matter };
  });
  return { ...project, render: progress.render, chapters };
}
