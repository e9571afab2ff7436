import { API } from '../api/contract';
import { useState } from 'react';
import type { Chapter, Project } from '../api/contract';
import { useApp } from '../store';

interface Props {
  project: Project;
  chapter: Chapter;
  onChange(project: Project): void;
  onError(error: unknown): void;
}

/** A paragraph as a choice of where to split: its opening words. */
const opening = (paragraph: string) => (paragraph.length > 60 ? `${paragraph.slice(0, 57)}…` : paragraph);

/**
 * A chapter's tools (docs/projects.md, "Chapters"): rename it (what is said stays), leave it out
 * of render and export, merge it with the next, split it before a paragraph.
 */
export function ChapterActions({ project, chapter, onChange, onError }: Props) {
  const client = useApp((s) => s.client)!;
  const [splitting, setSplitting] = useState(false);
  const [busy, setBusy] = useState(false);
  const last = chapter.index === project.chapters.length - 1;
  const paragraphs = splitting ? chapter.text.split(/\n{2,}/) : [];
  const id = project.project_id;

  const run = (work: () => Promise<Project>) => {
    setBusy(true);
    work()
      .then(onChange, onError)
      .finally(() => setBusy(false));
  };
  const rename = () => {
    const title = window.prompt('Chapter name (what is said does not change):', chapter.title)?.trim();
    if (title && title !== chapter.title)
      run(() => client.call(API.changeChapter, { params: { id, index: String(chapter.index) }, body: { title } }));
  };

  return (
    <span className="chapter-actions">
      <label className="small" title="Left out of render and export when unticked">
        <input
          type="checkbox"
          checked={!chapter.excluded}
          disabled={busy}
          onChange={(e) =>
            run(() =>
              client.call(API.changeChapter, { params: { id, index: String(chapter.index) }, body: { excluded: !e.target.checked } }),
            )
          }
          aria-label={`Include ${chapter.title}`}
        />
        Include
      </label>
      <button type="button" className="small secondary" onClick={rename} disabled={busy} aria-label={`Rename ${chapter.title}`}>
        Rename
      </button>
      <button
        type="button"
        className="small secondary"
        disabled={busy || last}
        onClick={() => run(() => client.call(API.mergeChapter, { params: { id, index: String(chapter.index) } }))}
        aria-label={`Merge with next: ${chapter.title}`}
      >
        Merge with next
      </button>
      <button type="button" className="small secondary" disabled={busy} onClick={() => setSplitting(!splitting)} aria-expanded={splitting}>
        Split…
      </button>
      {splitting && (
        <select
          aria-label={`Split ${chapter.title} before`}
          value=""
          onChange={(e) => {
            setSplitting(false);
            run(() =>
              client.call(API.splitChapter, { params: { id, index: String(chapter.index) }, body: { paragraph: Number(e.target.value) } }),
            );
          }}
        >
          <option value="">Split before…</option>
          {paragraphs.slice(1).map((paragraph, i) => (
            <option key={i + 1} value={i + 1}>
              ¶{i + 2}: {opening(paragraph)}
            </option>
          ))}
        </select>
      )}
    </span>
  );
}
