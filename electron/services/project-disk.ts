/**
 * The disk a project's audio takes, told before it is made: a book of 17 hours is 2.8 GB of WAV,
 * and a narrator should learn that before a render fills the disk, not after (docs/projects.md).
 * Chapters already rendered count as measured; the others by the queue's upper estimate of speech
 * per character (jobs/admission.ts), the figure each job is admitted with, and their paragraphs'
 * pauses, which a book of short chapters is largely made of.
 */
import { ApiError, codePoints, OUTPUT_FORMATS, outputChoice, type OutputFormat, type ProjectDisk } from '../contract';
import { keptBytesPerSecond, runningBytesPerSecond, speechSeconds, type JobOutput } from '../jobs/admission';
import { PARAGRAPH_PAUSE_MS } from '../jobs/chunker';
import type { JobRow } from '../jobs/rows';
import type { ChapterRow, ProjectRow } from '../projects/store';

/** The data folder's disk as a project sees it (DiskBudget). */
export interface DiskSpace {
  free(): Promise<number>;
  readonly minFreeBytes: number;
}

export interface DiskChapter {
  chapter: ChapterRow;
  /** Its job when that job's audio stands (done, up to date). */
  done: JobRow | undefined;
  needsRender: boolean;
}

/** What a project's chapters are rendered as: a compressed chapter keeps its WAV beside it, for the export. */
export const chapterOutput = (format: OutputFormat): JobOutput => ({ ...outputChoice({ format }), keepWav: format !== 'wav' });

const MB = 1024 * 1024;
/** Sizes as a narrator reads them: "740 MB", "2.8 GB". */
export const sizeText = (bytes: number) => (bytes < 1024 * MB ? `${Math.ceil(bytes / MB)} MB` : `${(bytes / 1024 / MB).toFixed(1)} GB`);

/** A chapter's length: as measured once rendered, else its speech and the pause after each paragraph (a heading is one). */
function secondsOf(entry: DiskChapter, rate: number): number {
  if (entry.done?.duration_s != null) return entry.done.duration_s;
  const { text } = entry.chapter;
  const paragraphs = 1 + (text.trim().match(/\n\s*\n/g)?.length ?? 0);
  return speechSeconds(codePoints(text), rate) + (paragraphs * PARAGRAPH_PAUSE_MS) / 1000;
}

/** The estimate a studio shows before a render or an export. */
export async function projectDisk(project: ProjectRow, chapters: readonly DiskChapter[], sampleRate: number, disk: DiskSpace) {
  const book = chapters.reduce((n, c) => n + secondsOf(c, project.rate), 0);
  const formats = Object.fromEntries(
    OUTPUT_FORMATS.map((format) => [format, Math.ceil(book * keptBytesPerSecond(chapterOutput(format), sampleRate))]),
  ) as ProjectDisk['formats'];
  const render = renderBytes(project, chapters, sampleRate);
  const free = Math.max(0, (await disk.free()) - disk.minFreeBytes);
  return { free_bytes: free, book_seconds: Math.round(book * 10) / 10, render, formats } satisfies ProjectDisk;
}

/**
 * What a render now writes at most: every chapter it would synthesize, kept, and the chunk files of
 * the longest while it runs (a job's go when it is done).
 */
function renderBytes(project: ProjectRow, chapters: readonly DiskChapter[], sampleRate: number): ProjectDisk['render'] {
  const output = chapterOutput(project.format);
  const pending = chapters.filter((c) => c.needsRender).map((c) => secondsOf({ ...c, done: undefined }, project.rate));
  const kept = pending.reduce((n, seconds) => n + seconds * keptBytesPerSecond(output, sampleRate), 0);
  const longest = pending.reduce((n, seconds) => Math.max(n, seconds), 0);
  const running = longest * runningBytesPerSecond(output, sampleRate);
  return { chapters: pending.length, bytes: Math.ceil(kept + running) };
}

/** Refuses a render whose audio would not fit above the disk's free minimum: 507, in a narrator's terms. */
export async function assertRoomToRender(project: ProjectRow, chapters: readonly DiskChapter[], sampleRate: number, disk: DiskSpace) {
  const { chapters: count, bytes } = renderBytes(project, chapters, sampleRate);
  if (count === 0) return;
  const free = await disk.free();
  if (free - bytes < disk.minFreeBytes) {
    const which = count === 1 ? '1 chapter' : `${count} chapters`;
    throw new ApiError(
      'insufficient_storage',
      `Rendering ${which} as ${project.format.toUpperCase()} needs up to ${sizeText(bytes)} of disk, and ${sizeText(free)} are free, ` +
        `of which ${sizeText(disk.minFreeBytes)} must stay free. Free some space on the disk of Orator's data folder, then render again.`,
    );
  }
}
