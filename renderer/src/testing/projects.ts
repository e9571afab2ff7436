/** Test support: projects as the gateway answers them (electron/contract/projects.ts), for store and component tests. */
import type { Project } from '../api/contract';

/** A project with no chapters, up to date; `changes` override any field. */
export function testProject(changes: Partial<Project> = {}): Project {
  const id = changes.project_id ?? 'p';
  return {
    project_id: id,
    title: `Book ${id}`,
    author: '',
    voice: 'espeak-ng:en-us',
    rate: 1,
    pitch: 1,
    volume: 1,
    format: 'wav',
    source_name: `${id}.md`,
    language: '',
    has_cover: false,
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    render: { state: 'up_to_date', chapters_done: 0, chapters_total: 0, chunks_done: 0, chunks_total: 0 },
    chapters: [],
    ...changes,
  };
}
