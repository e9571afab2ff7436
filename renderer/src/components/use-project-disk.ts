import { API } from '../api/contract';
import { useEffect, useState } from 'react';
import type { Project, ProjectDisk } from '../api/contract';
import { useApp } from '../store';

/**
 * What a project's audio takes on disk and what is free (docs/projects.md#disk), read again when
 * its settings change or a chapter is rendered or changed: not at every poll of a render.
 */
export function useProjectDisk(project: Project, onError: (error: unknown) => void): ProjectDisk | null {
  const client = useApp((s) => s.client)!;
  const [disk, setDisk] = useState<ProjectDisk | null>(null);
  const done = project.chapters.filter((c) => c.status === 'done').length;
  const pending = project.chapters.filter((c) => c.needs_render).length;
  useEffect(() => {
    client.call(API.getProjectDisk, { params: { id: project.project_id } }).then(setDisk, onError);
  }, [client, project.project_id, project.updated_at, done, pending, onError]);
  return disk;
}
