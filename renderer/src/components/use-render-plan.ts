import { useEffect, useState } from 'react';
import { API, type Project, type RenderPlan } from '../api/contract';
import { useApp } from '../store';

/**
 * What a render of the project would synthesize now, and about how long (docs/projects.md#what-a-change-costs),
 * read again when which chapters need a render changes: after a lexicon entry, an edit, a setting.
 * Not read while a render runs (shown only while chapters need one).
 */
export function useRenderPlan(project: Project, onError: (error: unknown) => void): RenderPlan | null {
  const client = useApp((s) => s.client)!;
  const [plan, setPlan] = useState<RenderPlan | null>(null);
  const pending = project.chapters.flatMap((c) => (c.needs_render ? [c.index] : [])).join(',');
  const { state } = project.render;
  useEffect(() => {
    if (pending === '' || state === 'rendering') return;
    client.call(API.getRenderPlan, { params: { id: project.project_id } }).then(setPlan, onError);
  }, [client, project.project_id, project.updated_at, pending, state, onError]);
  return plan;
}
