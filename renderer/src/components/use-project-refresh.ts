import { useEffect } from 'react';
import { API, type Project } from '../api/contract';
import { useApp } from '../store';

/** How often a project with chapters rendering is read again. */
const POLL_MS = 1000;

/**
 * Reads the project again while its chapters render (their status and progress, each second), and
 * when one of its chapters is played anew: a sentence edited in the player changed that chapter.
 */
export function useProjectRefresh(project: Project, onChange: (project: Project) => void, onError: (error: unknown) => void): void {
  const client = useApp((s) => s.client)!;
  const active = project.render.state === 'rendering';
  const played = useApp((s) => (s.current?.kind === 'job' ? s.current : null));

  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => client.call(API.getProject, { params: { id: project.project_id } }).then(onChange, onError), POLL_MS);
    return () => clearTimeout(timer);
  }, [active, client, project, onChange, onError]);

  useEffect(() => {
    if (!played || !project.chapters.some((c) => c.job_id === played.jobId)) return;
    client.call(API.getProject, { params: { id: project.project_id } }).then(onChange, onError);
    // on each new source only (a sentence edit plays the job again)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [played?.key]);
}
