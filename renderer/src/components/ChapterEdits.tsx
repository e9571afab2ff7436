import { API } from '../api/contract';
import type { Project } from '../api/contract';
import { useApp } from '../store';

interface Props {
  project: Project;
  onChange(project: Project): void;
  onError(error: unknown): void;
}

/**
 * The project's sentence edits, chapter by chapter: each one the manuscript's sentence and what is
 * said instead. An edit whose sentence the manuscript no longer holds is flagged and not applied;
 * the narrator dismisses it (or edits the new sentence in the player). An applied edit is undone by
 * editing its sentence back in the player.
 */
export function ChapterEdits({ project, onChange, onError }: Props) {
  const client = useApp((s) => s.client)!;
  const edited = project.chapters.filter((c) => c.edits.length > 0);
  if (edited.length === 0) return null;
  const dismiss = (chapter: number, edit: number) =>
    client
      .call(API.dismissChapterEdit, { params: { id: project.project_id, index: String(chapter), n: String(edit) } })
      .then(onChange, onError);
  return (
    <section className="chapter-edits" aria-label="Sentence edits">
      <h3>Sentence edits</h3>
      <ul>
        {edited.flatMap((chapter) =>
          chapter.edits.map((edit, n) => (
            <li key={`${chapter.index}-${n}`} className={edit.stale ? 'stale' : undefined}>
              <span className="muted small">{chapter.title}:</span> <del>{edit.original}</del> → <ins>{edit.text}</ins>
              {edit.stale && (
                <>
                  {' '}
                  <span className="tag warn">
                    The manuscript changed: this sentence is no longer in the chapter, so the edit is not said.
                  </span>{' '}
                  <button type="button" className="ghost small" onClick={() => void dismiss(chapter.index, n)}>
                    Dismiss
                  </button>
                </>
              )}
            </li>
          )),
        )}
      </ul>
    </section>
  );
}
