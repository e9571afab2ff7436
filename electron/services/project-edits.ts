import { ApiError } from '../contract';
import { applyEdits, recordEdit, utf16Offset } from '../projects/edits';
import type { ProjectStore } from '../projects/store';
import type { SentenceEdited } from './jobs';
import type { RenderKeys } from './render-keys';

/**
 * Makes a sentence edit of a chapter's job the chapter's (ProjectService.sentenceEdited says why);
 * nothing when the chapter has another job by now (replaced meanwhile).
 */
export function recordSentenceEdit(
  store: ProjectStore,
  keys: RenderKeys,
  place: { project_id: string; idx: number },
  { jobId, span, text }: SentenceEdited,
): void {
  const project = store.get(place.project_id);
  const chapter = store.chapters(place.project_id).find((c) => c.idx === place.idx);
  if (!project || !chapter || chapter.job_id !== jobId) return;
  const rendered = applyEdits(chapter.text, chapter.edits);
  const keyOf = keys.maker(project);
  const upToDate = keyOf !== null && chapter.render_key === keyOf(chapter);
  const edits = recordEdit(chapter.text, chapter.edits, [utf16Offset(rendered, span[0]), utf16Offset(rendered, span[1])], text);
  const key = upToDate ? keyOf({ ...chapter, edits }) : null;
  store.recordEdits(project.id, chapter.idx, edits, key);
}

/** Forgets edit `n` of chapter `index` of a project, once checked stale (ProjectService.dismissEdit); the path's text, else 404. */
export function dismissStaleEdit(store: ProjectStore, projectId: string, index: string, n: string): void {
  const chapter = /^[0-9]{1,4}$/.test(index) ? store.chapters(projectId).find((c) => c.idx === Number(index)) : undefined;
  if (!chapter) throw new ApiError('not_found', `The project has no chapter ${index}.`);
  const edit = /^[0-9]{1,4}$/.test(n) ? chapter.edits[Number(n)] : undefined;
  if (!edit) throw new ApiError('not_found', `Chapter ${index} has no edit ${n}.`);
  if (edit.at !== null) {
    throw new ApiError(
      'invalid_request',
      `Edit ${n} of chapter ${index} is in the chapter's audio: edit its sentence back to "${edit.original}" to undo it.`,
    );
  }
  store.recordEdits(
    projectId,
    chapter.idx,
    chapter.edits.filter((e) => e !== edit),
    null,
  );
}
