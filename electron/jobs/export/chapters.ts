/**
 * Where the chapters of an export start, from the structure of its jobs' text (their sentence
 * timings) or from the chapters the client names. Rules (docs/audiobook.md):
 * - every job starts a chapter, titled with the job's own title (given with PATCH), else the
 *   heading that opens the job, else the start of its text;
 * - "auto": a paragraph (between blank lines) that is a chapter heading (contract/headings.ts: a
 *   Markdown heading of level 1 or 2, or a short "Chapter N" line) starts a chapter titled with it;
 * - explicit: chapters at the sentences holding the given offsets of each job's text.
 */
import type { SentenceTiming } from '../../contract';
import { chapterHeading } from '../../contract/headings';

export interface ChapterSource {
  jobId: string;
  title: string;
  /** Whether `title` was given by the user rather than made from the text. */
  titleGiven: boolean;
  sentences: readonly SentenceTiming[];
}

export interface ExplicitChapter {
  job_id: string;
  title: string;
  /** Code points into the job's text as it was sent; the chapter starts at the sentence holding it. */
  text_offset: number;
}

export type ChapterRule = 'auto' | 'jobs' | readonly ExplicitChapter[];

export interface PlannedChapter {
  title: string;
  job: number;
  /** The first sentence of the chapter, in its job's timings. */
  sentence: number;
  /** Seconds from the start of its job's audio. */
  startS: number;
}

const TITLE_MAX_CHARS = 200;

/** The chapters of the jobs, in order; at least one per job. */
export function planChapters(jobs: readonly ChapterSource[], rule: ChapterRule): PlannedChapter[] {
  return jobs.flatMap((job, index) => {
    const found = headings(job.sentences);
    const opening = found[0]?.sentence === 0 ? found[0].title : undefined;
    const title = job.titleGiven ? job.title : (opening ?? job.title);
    const starts = rule === 'jobs' ? [] : rule === 'auto' ? found : explicitStarts(job, rule);
    const chapters = starts.map((start) => ({
      title: start.title,
      job: index,
      sentence: start.sentence,
      startS: job.sentences[start.sentence]?.start_s ?? 0,
    }));
    if (chapters[0]?.sentence !== 0) chapters.unshift({ title, job: index, sentence: 0, startS: 0 });
    return chapters;
  });
}

/** Heading paragraphs: the sentence that opens each, and the paragraph's text as the title. */
function headings(sentences: readonly SentenceTiming[]): { sentence: number; title: string }[] {
  const found: { sentence: number; title: string }[] = [];
  let start = 0;
  sentences.forEach((sentence, i) => {
    const last = sentence.paragraph_end === true || i === sentences.length - 1;
    if (!last) return;
    const paragraph = sentences
      .slice(start, i + 1)
      .map((s) => s.text)
      .join(' ');
    const title = headingTitle(paragraph);
    if (title !== null) found.push({ sentence: start, title });
    start = i + 1;
  });
  return found;
}

/** The chapter title a paragraph gives when it is a heading, else null. */
export function headingTitle(paragraph: string): string | null {
  const title = chapterHeading(paragraph.trim(), true);
  return title === null ? null : clip(title);
}

function explicitStarts(job: ChapterSource, chapters: readonly ExplicitChapter[]): { sentence: number; title: string }[] {
  return chapters
    .filter((chapter) => chapter.job_id === job.jobId)
    .map((chapter) => {
      const holding = job.sentences.findIndex((s) => s.text_end > chapter.text_offset);
      return { sentence: holding === -1 ? Math.max(0, job.sentences.length - 1) : holding, title: clip(chapter.title) };
    })
    .sort((a, b) => a.sentence - b.sentence)
    .filter((chapter, i, all) => i === 0 || chapter.sentence !== all[i - 1]!.sentence);
}

const clip = (title: string) => [...title.replace(/\s+/g, ' ').trim()].slice(0, TITLE_MAX_CHARS).join('');
