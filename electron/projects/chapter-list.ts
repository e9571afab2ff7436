/**
 * A project's chapters merged and split (docs/projects.md, "Chapters"): the new list, and the
 * jobs whose audio no longer matches a chapter's text. A chapter whose text is unchanged keeps its
 * job; merged and split chapters are rendered again.
 */
import { ApiError, PROJECT_LIMITS } from '../contract';
import { clip } from './manuscript';
import type { SentenceEdit } from './edits';
import type { ChapterRow, NewChapter } from './store';

/** Sentence edits moved by `by` UTF-16 units, as their chapter's text moved; stale ones as they are. */
const shifted = (edits: readonly SentenceEdit[], by: number) => edits.map((e) => (e.at === null ? e : { ...e, at: e.at + by }));

export interface ChapterListChange {
  chapters: NewChapter[];
  /** Jobs of chapters whose text changed: to delete. */
  dropped: (string | null)[];
}

/** A chapter's paragraphs, as its text is cut at blank lines. */
export const paragraphsOf = (text: string) => text.split(/\n{2,}/);

const unchanged = ({ idx: _idx, ...chapter }: ChapterRow): NewChapter => chapter;

/** Chapter `index` and the one after it as one chapter, titled as the first, in the first's part. */
export function mergeWithNext(chapters: ChapterRow[], index: number): ChapterListChange {
  const first = chapters[index]!;
  const second = chapters[index + 1];
  if (!second) throw new ApiError('invalid_request', `Chapter ${index} is the last chapter: there is none after it to merge with.`);
  const merged: NewChapter = {
    title: first.title,
    text: `${first.text}\n\n${second.text}`,
    job_id: null,
    render_key: null,
    edits: [...first.edits, ...shifted(second.edits, first.text.length + 2)],
    part: first.part,
    front_matter: first.front_matter && second.front_matter,
    excluded: first.excluded && second.excluded,
  };
  return {
    chapters: [...chapters.slice(0, index).map(unchanged), merged, ...chapters.slice(index + 2).map(unchanged)],
    dropped: [first.job_id, second.job_id],
  };
}

/**
 * Chapter `index` cut before its paragraph `paragraph` (from 0; at least 1, so neither half is
 * empty). The new chapter is in the same part; its title is `title`, else its first paragraph when
 * that reads as a heading (one short line), else the chapter's title and "(continued)".
 */
export function splitAt(chapters: ChapterRow[], index: number, paragraph: number, title?: string): ChapterListChange {
  if (chapters.length >= PROJECT_LIMITS.chapters) {
    throw new ApiError('too_many_chapters', `The project has ${chapters.length} chapters, the most it holds; merge some first.`);
  }
  const chapter = chapters[index]!;
  const paragraphs = paragraphsOf(chapter.text);
  if (paragraph >= paragraphs.length) {
    throw new ApiError(
      'invalid_request',
      `Chapter ${index} has ${paragraphs.length} paragraphs; "paragraph" is from 1 to ${paragraphs.length - 1}.`,
    );
  }
  const rest = paragraphs.slice(paragraph);
  const opening = rest[0]!.trim();
  const named = title?.trim() || (opening.length <= 80 && !opening.includes('\n') ? opening : `${chapter.title} (continued)`);
  const base = { job_id: null, render_key: null, part: chapter.part, front_matter: chapter.front_matter, excluded: chapter.excluded };
  const head = paragraphs.slice(0, paragraph).join('\n\n');
  // each edit goes with the half its sentence is in; stale ones stay with the first
  const inSecond = (e: SentenceEdit) => e.at !== null && e.at >= head.length;
  const halves: NewChapter[] = [
    { ...base, title: chapter.title, text: head, edits: chapter.edits.filter((e) => !inSecond(e)) },
    {
      ...base,
      title: clip(named, PROJECT_LIMITS.titleChars),
      text: rest.join('\n\n'),
      edits: shifted(chapter.edits.filter(inSecond), -(head.length + 2)),
    },
  ];
  return {
    chapters: [...chapters.slice(0, index).map(unchanged), ...halves, ...chapters.slice(index + 1).map(unchanged)],
    dropped: [chapter.job_id],
  };
}
