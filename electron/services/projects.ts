import { randomUUID } from 'node:crypto';
import {
  ApiError,
  checkTitle,
  DEFAULT_OUTPUT_FORMAT,
  formatNamed,
  type Export,
  type ExportRequest,
  OPTION_RANGES,
  PROJECT_LIMITS,
  type Chapter,
  type ChapterPatch,
  type ChapterSplit,
  type ManuscriptFile,
  type Project,
  type ProjectCreate,
  type ProjectDisk,
  type ProjectExportBody,
  type ProjectList,
  type ProjectPatch,
  type RenderPlan,
  type RenderResult,
} from '../contract';
import type { RenderCache } from '../jobs/render-cache/cache';
import type { DiskBudget } from '../jobs/disk-budget';
import type { JobState } from '../jobs/state';
import type { JobRow, JobStore } from '../jobs/store';
import type { DocumentReader } from '../projects/document-reader';
import { mergeWithNext, splitAt, type ChapterListChange } from '../projects/chapter-list';
import { applyEdits, recordEdit, utf16Offset } from '../projects/edits';
import { clip, cutManuscript, storedTextBytes } from '../projects/manuscript';
import type { ChapterRow, ProjectRow, ProjectSettings, ProjectStore } from '../projects/store';
import type { ExportHold } from './exports';
import type { JobService, SentenceEdited } from './jobs';
import { bookOf } from './project-book';
import { chapterStatus, chapterView, isContinuable, needsRender, projectProgress, projectView } from './project-chapters';
import { bookAuthor, importedBook, voiceForBook } from './project-import';
import { chaptersAfter } from './project-manuscript';
import { RenderKeys, type RevisedLexicon } from './render-keys';
import { planRender } from './render-plan';
import { spokenBy, type SynthesisService } from './synthesis';
import type { BookVoices } from './voices';
import { assertRoomToRender, projectDisk, type DiskChapter } from './project-disk';
import { dropJobs } from './drop-jobs';
import { definedOnly, KeyedSerial } from './serial';

const PROJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ProjectDeps {
  store: ProjectStore;
  jobStore: JobStore;
  voices: BookVoices;
  synthesis: SynthesisService;
  jobs: JobService;
  lexicon?: RevisedLexicon | undefined;
  /** Makes audiobooks of finished jobs (ExportService). */
  exports: { create(request: ExportRequest, hold: ExportHold): Promise<Export> };
  /** The live text maximum (the max_text_length setting): a manuscript's length. */
  maxTextLength: () => number;
  /** Reads manuscript files on a thread of their own. */
  documents: DocumentReader;
  /** The disk ledger: a manuscript's text is reserved before it is stored. */
  disk: DiskBudget;
  /** The sentences kept across renders, which a render plan counts as made. */
  renderCache?: RenderCache | undefined;
  /** Chunks synthesized at once (engine threads), for a render plan's time. */
  concurrency?: number;
}

const TEXT_WORDING = { what: "This manuscript's text", advice: 'Free some space, or delete projects or finished jobs.' };

/**
 * Projects as the product offers them: a manuscript in chapters with the settings it is rendered
 * with; a render queues one job per chapter whose audio is missing or out of date (docs/projects.md).
 */
export class ProjectService {
  /** Changes of one project run one after another (a render while the manuscript is replaced, two renders). */
  private readonly serial = new KeyedSerial();
  private readonly keys: RenderKeys;

  constructor(private readonly deps: ProjectDeps) {
    this.keys = new RenderKeys(deps.voices, deps.lexicon);
  }

  list(): ProjectList {
    return { projects: this.deps.store.list().map((row) => ({ ...projectView(row), chapter_count: row.chapter_count })) };
  }

  get(id: string): Project {
    return this.view(this.row(id));
  }

  async create(body: ProjectCreate): Promise<Project> {
    const { store } = this.deps;
    if (store.count() >= PROJECT_LIMITS.projects) {
      throw new ApiError(
        'too_many_projects',
        `There are ${PROJECT_LIMITS.projects} projects, the most a data folder holds; delete one first.`,
      );
    }
    const { manuscript, ...change } = body;
    const read = await cutManuscript(manuscript, this.deps.maxTextLength(), this.deps.documents);
    // no voice asked for: one of the book's language, and the report says so
    const cut = change.voice ? { ...read, voice: '' } : voiceForBook(this.deps.voices, read);
    const defaults = { title: cut.title, author: bookAuthor(cut), voice: cut.voice, ...prosodyDefaults(), format: DEFAULT_OUTPUT_FORMAT };
    const settings = this.checked(defaults, change);
    const now = new Date().toISOString();
    const book = importedBook(manuscript, cut);
    const { language, import_report, source_name } = book;
    const row: ProjectRow = {
      id: randomUUID(),
      ...settings,
      ...{ source_name, language, import_report, has_cover: book.cover !== null },
      ...{ created_at: now, updated_at: now },
    };
    const stored = chaptersAfter([], cut.book.chapters).next;
    const bytes = storedTextBytes(stored) + (book.cover?.length ?? 0);
    await this.deps.disk.withRoom(bytes, TEXT_WORDING, () => store.insert(row, book, stored));
    return this.view(row);
  }

  update(id: string, patch: ProjectPatch): Promise<Project> {
    return this.serially(id, () => {
      const row = this.row(id);
      this.deps.store.updateSettings(id, this.checked(row, patch), new Date().toISOString());
      return this.get(id);
    });
  }

  /**
   * Cuts a new manuscript into chapters. A chapter whose text is found unchanged (anywhere in the
   * new order) keeps its job; the jobs of chapters gone or changed are deleted. Sentence edits go
   * with their chapter, stale where their sentence is gone (project-manuscript.ts).
   */
  replaceManuscript(id: string, file: ManuscriptFile): Promise<Project> {
    return this.serially(id, async () => {
      this.row(id);
      const cut = await cutManuscript(file, this.deps.maxTextLength(), this.deps.documents);
      const { next, dropped } = chaptersAfter(this.deps.store.chapters(id), cut.book.chapters);
      const book = importedBook(file, cut);
      const bytes = storedTextBytes(next) + (book.cover?.length ?? 0);
      await this.deps.disk.withRoom(bytes, TEXT_WORDING, () => this.deps.store.replaceChapters(id, next, new Date().toISOString(), book));
      this.keys.forget(id);
      await this.dropJobs(dropped);
      return this.get(id);
    });
  }

  /** Renames a chapter (what is said stays), or leaves it out of render and export, or takes it back. */
  changeChapter(id: string, index: string, patch: ChapterPatch): Promise<Project> {
    return this.serially(id, () => {
      const chapter = this.chapterAt(id, index);
      const title = patch.title === undefined ? { title: chapter.title } : checkTitle(patch.title);
      if ('problem' in title) throw new ApiError('invalid_request', `"title": ${title.problem}`);
      const excluded = patch.excluded ?? chapter.excluded;
      this.deps.store.updateChapter(id, chapter.idx, { title: title.title, excluded }, new Date().toISOString());
      return this.get(id);
    });
  }

  /** Merges a chapter with the one after it, or splits it before a paragraph; what changed is rendered again. */
  rearrangeChapter(id: string, index: string, change: { merge: true } | { split: ChapterSplit }): Promise<Project> {
    return this.serially(id, async () => {
      const chapters = this.deps.store.chapters(this.row(id).id);
      const { idx } = this.chapterAt(id, index);
      const next: ChapterListChange =
        'merge' in change ? mergeWithNext(chapters, idx) : splitAt(chapters, idx, change.split.paragraph, change.split.title);
      this.deps.store.replaceChapters(id, next.chapters, new Date().toISOString());
      this.keys.forget(id);
      await this.dropJobs(next.dropped);
      return this.get(id);
    });
  }

  /**
   * A sentence of a chapter's job was given new text (JobService.editSentence): the edit becomes
   * the chapter's, kept beside the manuscript's text, so every later render says it. A chapter
   * that was up to date stays so: its audio has the edit. `span`: the sentence in the job's text
   * (code points), which is the chapter's text as rendered.
   */
  async sentenceEdited({ jobId, span, text }: SentenceEdited): Promise<void> {
    const place = this.deps.store.chapterOfJob(jobId);
    if (!place) return;
    await this.serially(place.project_id, () => {
      const project = this.deps.store.get(place.project_id);
      const chapter = this.deps.store.chapters(place.project_id).find((c) => c.idx === place.idx);
      if (!project || !chapter || chapter.job_id !== jobId) return; // replaced meanwhile
      const rendered = applyEdits(chapter.text, chapter.edits);
      const keyOf = this.keys.maker(project);
      const upToDate = keyOf !== null && chapter.render_key === keyOf(chapter);
      const edits = recordEdit(chapter.text, chapter.edits, [utf16Offset(rendered, span[0]), utf16Offset(rendered, span[1])], text);
      const key = upToDate ? keyOf({ ...chapter, edits }) : null;
      this.deps.store.recordEdits(project.id, chapter.idx, edits, key);
    });
  }

  /**
   * Forgets a stale sentence edit (its sentence is no longer in the manuscript). An applied edit
   * is undone by editing its sentence back, which re-renders it: its chapter's audio and text stay
   * one.
   */
  dismissEdit(id: string, index: string, n: string): Promise<Project> {
    return this.serially(id, () => {
      const chapter = /^[0-9]{1,4}$/.test(index)
        ? this.deps.store.chapters(this.row(id).id).find((c) => c.idx === Number(index))
        : undefined;
      if (!chapter) throw new ApiError('not_found', `The project has no chapter ${index}.`);
      const edit = /^[0-9]{1,4}$/.test(n) ? chapter.edits[Number(n)] : undefined;
      if (!edit) throw new ApiError('not_found', `Chapter ${index} has no edit ${n}.`);
      if (edit.at !== null) {
        throw new ApiError(
          'invalid_request',
          `Edit ${n} of chapter ${index} is in the chapter's audio: edit its sentence back to "${edit.original}" to undo it.`,
        );
      }
      this.deps.store.recordEdits(
        id,
        chapter.idx,
        chapter.edits.filter((e) => e !== edit),
        null,
      );
      return this.get(id);
    });
  }

  /** Deletes a project and its chapters' jobs (running ones are cancelled first). */
  remove(id: string): Promise<void> {
    return this.serially(id, async () => {
      const jobIds = this.deps.store.chapters(this.row(id).id).map((c) => c.job_id);
      this.deps.store.delete(id);
      this.keys.forget(id);
      await this.dropJobs(jobIds);
    });
  }

  /**
   * What a render would synthesize now: per chapter it would queue, the sentences neither its last
   * render nor the render cache holds (render-plan.ts), and about how long they take.
   */
  renderPlan(id: string): RenderPlan {
    const project = this.row(id);
    const keyOf = this.keyMaker(project);
    const { voices, lexicon, jobStore } = this.deps;
    const resolved = voices.resolve({ voice: project.voice });
    const voice = { resolved, spoken: spokenBy(lexicon, resolved), entries: lexicon?.list().entries ?? [] };
    const chapters = this.deps.store.chapters(id).flatMap((chapter) => {
      const job = chapter.job_id === null ? undefined : jobStore.get(chapter.job_id);
      if (!needsRender(chapter, keyOf(chapter), job)) return [];
      const index = this.keys.index(project.id, chapter, applyEdits(chapter.text, chapter.edits), resolved.voice.language);
      return [{ chapter, job, index }];
    });
    const { renderCache: cache, concurrency = 1 } = this.deps;
    return planRender({ jobStore, cache, concurrency }, project, voice, chapters);
  }

  /** Queues a job for every chapter that needs one; the others are left as they are. */
  render(id: string): Promise<RenderResult> {
    return this.serially(id, async () => {
      const project = this.row(id);
      const keyOf = this.keyMaker(project);
      const result: Omit<RenderResult, 'project'> = { queued: [], unchanged: [], excluded: [] };
      const chapters = this.deps.store.chapters(id);
      await assertRoomToRender(
        project,
        this.diskChapters(
          chapters.filter((c) => !c.excluded),
          keyOf,
        ),
        this.sampleRate(project),
        this.deps.disk,
      );
      for (const chapter of chapters) {
        if (chapter.excluded) {
          result.excluded.push(chapter.idx);
          continue;
        }
        const key = keyOf(chapter);
        const job = chapter.job_id === null ? undefined : this.deps.jobStore.get(chapter.job_id);
        if (job && chapter.render_key === key && isContinuable(job)) {
          // cancelled: it goes on from its finished chunks
          await this.deps.jobs.resume(job.id);
          result.queued.push({ index: chapter.idx, job_id: job.id, continued: true });
          continue;
        }
        if (!needsRender(chapter, key, job)) {
          result.unchanged.push(chapter.idx);
          continue;
        }
        const jobId = await this.queue(project, chapter);
        this.deps.store.recordRender(id, chapter.idx, jobId, key);
        await this.dropJobs([chapter.job_id]);
        result.queued.push({ index: chapter.idx, job_id: jobId, continued: false });
      }
      return { ...result, project: this.get(id) };
    });
  }

  /** Holds back every chapter being rendered; what they have synthesized is kept for `resume`. */
  pause(id: string): Promise<Project> {
    return this.serially(id, async () => {
      for (const job of this.chapterJobs(id, ['queued', 'running'])) await this.deps.jobs.pause(job.id);
      return this.get(id);
    });
  }

  /** Takes up again every chapter paused, in reading order. */
  resume(id: string): Promise<Project> {
    return this.serially(id, async () => {
      for (const job of this.chapterJobs(id, ['paused'])) await this.deps.jobs.resume(job.id);
      return this.get(id);
    });
  }

  /**
   * Stops every chapter being rendered or paused. Their finished chunks are kept: the next render
   * continues each where it stopped (unless its text or settings changed meanwhile).
   */
  cancel(id: string): Promise<Project> {
    return this.serially(id, async () => {
      for (const job of this.chapterJobs(id, ['queued', 'running', 'paused'])) await this.deps.jobs.cancelOrDelete(job.id);
      return this.get(id);
    });
  }

  /** An audiobook of the project, its chapters in order (project-book.ts); every chapter rendered and up to date. */
  exportBook(id: string, body: ProjectExportBody, hold: ExportHold): Promise<Export> {
    const made = this.serially(id, () => this.deps.exports.create(bookOf(this.get(id), body, this.deps.store.cover(id)), hold));
    // a refusal gives the export's slot back at once
    made.catch(() => hold.release());
    return made;
  }

  private async queue(project: ProjectRow, chapter: ChapterRow): Promise<string> {
    const { voice, rate, pitch, volume, format } = project;
    const body = {
      text: applyEdits(chapter.text, chapter.edits),
      voice,
      rate,
      pitch,
      volume,
      format,
      mode: 'job' as const,
      // an export reads samples: a compressed chapter keeps its WAV beside it
      keep_wav: format !== 'wav',
    };
    // the project's chapters are one series: rendered in reading order, each taking what its
    // last render says alike from that render's audio (jobs/base-audio/)
    const answer = await this.deps.synthesis.synthesize(body, { id: project.id, idx: chapter.idx, base: chapter.job_id });
    if (answer.kind !== 'job') throw new Error('A project chapter was not queued as a job.');
    this.deps.jobs.rename(answer.job.job_id, clip(`${project.title}: ${chapter.title}`, PROJECT_LIMITS.titleChars));
    return answer.job.job_id;
  }

  /** The render keys of the project's chapters; unknown_voice when its voice is gone. */
  private keyMaker(project: ProjectRow): (chapter: ChapterRow) => string {
    const keyOf = this.keys.maker(project);
    if (!keyOf) throw new ApiError('unknown_voice', `The voice "${project.voice}" of this project is not installed; choose another.`);
    return keyOf;
  }

  /** What the project's audio takes on disk: rendered, and to be rendered (project-disk.ts). */
  disk(id: string): Promise<ProjectDisk> {
    const project = this.row(id);
    const keyOf = this.keys.maker(project);
    return projectDisk(project, this.diskChapters(this.deps.store.chapters(id), keyOf), this.sampleRate(project), this.deps.disk);
  }

  private diskChapters(chapters: readonly ChapterRow[], keyOf: ((chapter: ChapterRow) => string) | null): DiskChapter[] {
    return chapters.map((chapter) => {
      const job = chapter.job_id === null ? undefined : this.deps.jobStore.get(chapter.job_id);
      const stale = needsRender(chapter, keyOf?.(chapter) ?? null, job);
      return { chapter, needsRender: stale, done: stale || chapterStatus(job) !== 'done' ? undefined : job };
    });
  }

  /** The rate of the project's voice; the default voice's when it is gone (an estimate, not a render). */
  private sampleRate(project: ProjectRow): number {
    const { voices } = this.deps;
    try {
      return voices.resolve({ voice: project.voice }).voice.sampleRate;
    } catch {
      return voices.resolve({}).voice.sampleRate;
    }
  }

  private view(row: ProjectRow): Project {
    const keyOf = this.keys.maker(row);
    const chapters: Chapter[] = this.deps.store.chapters(row.id).map((chapter) => {
      const job = chapter.job_id === null ? undefined : this.deps.jobStore.get(chapter.job_id);
      return chapterView(chapter, job, needsRender(chapter, keyOf?.(chapter) ?? null, job));
    });
    return { ...projectView(row), render: projectProgress(chapters), chapters };
  }

  /** The chapter at `index` (the path's text), or 404. */
  private chapterAt(id: string, index: string): ChapterRow {
    const chapters = this.deps.store.chapters(this.row(id).id);
    const chapter = /^[0-9]{1,4}$/.test(index) ? chapters[Number(index)] : undefined;
    if (!chapter) throw new ApiError('not_found', `The project has no chapter ${index} (its chapters are 0 to ${chapters.length - 1}).`);
    return chapter;
  }

  /** Settings with a change applied, checked: titles one line, the voice installed (its id as resolved). */
  private checked(base: ProjectSettings, change: ProjectPatch): ProjectSettings {
    const next = { ...base, ...definedOnly(change) };
    const title = checkTitle(next.title);
    if ('problem' in title) throw new ApiError('invalid_request', `"title": ${title.problem}`);
    const author = next.author.trim();
    if (author && 'problem' in checkTitle(author)) {
      throw new ApiError('invalid_request', `"author" is one line of at most ${PROJECT_LIMITS.titleChars} characters.`);
    }
    const voice = this.deps.voices.resolve(next.voice ? { voice: next.voice } : {}).voice.id;
    return { ...next, title: title.title, author, voice, format: formatNamed(next.format) };
  }

  private row(id: string): ProjectRow {
    const row = PROJECT_ID.test(id) ? this.deps.store.get(id) : undefined;
    if (!row) throw new ApiError('project_not_found', `No project "${id}".`);
    return row;
  }

  /** The jobs of the project's chapters in these states, in reading order. */
  private chapterJobs(id: string, states: JobState[]): JobRow[] {
    return this.deps.store
      .chapters(this.row(id).id)
      .map((chapter) => (chapter.job_id === null ? undefined : this.deps.jobStore.get(chapter.job_id)))
      .filter((job): job is JobRow => job !== undefined && states.includes(job.state));
  }

  /** Cancels (if running) and deletes jobs a project no longer uses. */
  private dropJobs(ids: (string | null)[]): Promise<void> {
    return dropJobs(this.deps.jobStore, this.deps.jobs, ids);
  }

  private serially<T>(id: string, work: () => T | Promise<T>): Promise<T> {
    return this.serial.run(id, work);
  }
}

const prosodyDefaults = () => ({
  rate: OPTION_RANGES.rate.default,
  pitch: OPTION_RANGES.pitch.default,
  volume: OPTION_RANGES.volume.default,
});
