import { expect, it } from 'vitest';
import type { Chapter, ProjectRenderProgress } from '../api/contract';
import { testProject } from '../testing/projects';
import { withProgress } from './use-project-refresh';

const chapter = (index: number, state: Partial<Chapter>): Chapter => ({
  index,
  title: `Chapter ${index + 1}`,
  text: `Chapter ${index + 1}\n\nIt was a dark night.`,
  characters: 32,
  status: 'not_rendered',
  progress: { done: 0, total: 0 },
  needs_render: true,
  edits: [],
  front_matter: false,
  excluded: false,
  ...state,
});

const project = (chapters: Chapter[]) =>
  testProject({
    render: { state: 'rendering', chapters_done: 0, chapters_total: chapters.length, chunks_done: 0, chunks_total: 4 },
    chapters,
  });

it('lays the progress over the project: each chapter its new state, its text and edits kept, a cleared error gone', () => {
  const failed = chapter(0, { status: 'failed', job_id: 'a', error: { code: 'engine_error', message: 'It broke.' }, part: 'One' });
  const held = project([failed, chapter(1, {})]);
  const progress: ProjectRenderProgress = {
    render: { state: 'rendering', chapters_done: 0, chapters_total: 2, chunks_done: 1, chunks_total: 4 },
    chapters: [
      { index: 0, status: 'running', progress: { done: 1, total: 2 }, job_id: 'b', needs_render: false, excluded: false },
      { index: 1, status: 'queued', progress: { done: 0, total: 2 }, job_id: 'c', needs_render: false, excluded: false },
    ],
  };
  const followed = withProgress(held, progress)!;
  expect(followed.render).toEqual(progress.render);
  expect(followed.chapters[0]).toEqual({
    ...progress.chapters[0],
    title: 'Chapter 1',
    text: failed.text,
    characters: 32,
    edits: [],
    part: 'One',
    front_matter: false,
  });
  expect(followed.chapters[0]).not.toHaveProperty('error');
  expect(followed.chapters[1]).toMatchObject({ status: 'queued', job_id: 'c', text: held.chapters[1]!.text });
});

it('asks for the whole project when the chapters changed meanwhile', () => {
  const progress: ProjectRenderProgress = { render: project([]).render, chapters: [] };
  expect(withProgress(project([chapter(0, {})]), progress)).toBeNull();
});
