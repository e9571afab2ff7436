import { randomUUID } from 'node:crypto';
import {
  ApiError,
  checkTitle,
  type Export,
  type ExportRequest,
  PROJECT_LIMITS,
  type ChapterPatch,
  type ChapterSplit,
  type ChapterState,
  type ManuscriptFile,
  type Project,
  type ProjectCreate,
  type ProjectDisk,
  type ProjectExportBody,
  type ProjectList,
  type ProjectPatch,
  type ProjectRenderProgress,
  type RenderPlan,
  type RenderResult,
} from '../contract';
import type { DocumentReader } from '../projects/document-reader';
import { mergeWithNext, splitAt, type ChapterListChange } from '../projects/chapter-list';
import { cutManuscript, storedTextBytes } from '../projects/manuscript';
import type { ChapterRow, ProjectRow } from '../projects/store';
import type { ExportHold } from './exports';
import type { SentenceEdited } from './jobs';
import { bookOf } from './project-book';
import { chapterState, chapterView, needsRender, projectProgress, projectView } from './project-chapters';
import { importedBook, voiceForBook } from './project-import';
import { dismissStaleEdit, recordSentenceEdit } from './project-edits';
import { chaptersAfter } from './project-manuscript';
import { checkedSettings, newProjectSettings } from './project-settings';
import { RenderKeys } from './render-keys';
import { ProjectRenders, type ProjectRenderDeps } from './project-renders';
import { KeyedSerial } from './serial';

const PROJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ProjectDeps extends ProjectRenderDeps {
  /** Makes audiobooks of finished jobs (ExportService). */
  exports: { create(request: ExportRequest, hold: ExportHold): Promise<Export> };
  /** The live text maximum (the max_text_length setting): a manuscript's length. */
  maxTextLength: () => number;
  /** Reads manuscript files on a thread of their own. */
  documents: DocumentReader;
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
  private readonly renders: ProjectRenders;

  constructor(private readonly deps: ProjectDeps) {
    this.keys = new RenderKeys(deps.voices, deps.lexicon);
    this.renders = new ProjectRenders(deps, this.keys);
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
    const settings = checkedSettings(this.deps.voices, newProjectSettings(cut), change);
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
      this.deps.store.updateSettings(id, checkedSettings(this.deps.voices, row, patch), new Date().toISOString());
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
      await this.renders.drop(dropped);
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
      await this.renders.drop(next.dropped);
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
    await this.serially(place.project_id, () => recordSentenceEdit(this.deps.store, this.keys, place, { jobId, span, text }));
  }

  /**
   * Forgets a stale sentence edit (its sentence is no longer in the manuscript). An applied edit
   * is undone by editing its sentence back, which re-renders it: its chapter's audio and text stay
   * one.
   */
  dismissEdit(id: string, index: string, n: string): Promise<Project> {
    return this.serially(id, () => {
      dismissStaleEdit(this.deps.store, this.row(id).id, index, n);
      return this.get(id);
    });
  }

  /** Deletes a project and its chapters' jobs (running ones are cancelled first). */
  remove(id: string): Promise<void> {
    return this.serially(id, async () => {
      const jobIds = this.deps.store.chapters(this.row(id).id).map((c) => c.job_id);
      this.deps.store.delete(id);
      this.keys.forget(id);
      await this.renders.drop(jobIds);
    });
  }

  /** What a render would synthesize now, and about how long it takes (project-renders.ts). */
  renderPlan(id: string): RenderPlan {
    return this.renders.plan(this.row(id));
  }

  /** Queues a job for every chapter that needs one; the others are left as they are (project-renders.ts). */
  render(id: string): Promise<RenderResult> {
    return this.serially(id, async () => ({ ...(await this.renders.render(this.row(id))), project: this.get(id) }));
  }

  /** Holds back every chapter being rendered; what they have synthesized is kept for `resume`. */
  pause(id: string): Promise<Project> {
    return this.serially(id, async () => {
      await this.renders.pause(this.row(id).id);
      return this.get(id);
    });
  }

  /** Takes up again every chapter paused, in reading order. */
  resume(id: string): Promise<Project> {
    return this.serially(id, async () => {
      await this.renders.resume(this.row(id).id);
      return this.get(id);
    });
  }

  /** Stops every chapter being rendered or paused; the next render continues each where it stopped. */
  cancel(id: string): Promise<Project> {
    return this.serially(id, async () => {
      await this.renders.cancel(this.row(id).id);
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

  /** What the project's audio takes on disk: rendered, and to be rendered (project-disk.ts). */
  disk(id: string): Promise<ProjectDisk> {
    return this.renders.disk(this.row(id));
  }

  /** Where the project's render stands, chapter by chapter, without their texts (what the studio follows a render by). */
  progress(id: string): ProjectRenderProgress {
    const states = this.states(this.row(id)).map(([, state]) => state);
    return { render: projectProgress(states), chapters: states };
  }

  private view(row: ProjectRow): Project {
    const chapters = this.states(row).map(([chapter, state]) => chapterView(chapter, state));
    return { ...projectView(row), render: projectProgress(chapters), chapters };
  }

  /** Each chapter with where its render stands. */
  private states(row: ProjectRow): [ChapterRow, ChapterState][] {
    const keyOf = this.keys.maker(row);
    return this.deps.store.chapters(row.id).map((chapter) => {
      const job = this.renders.jobOf(chapter);
      return [chapter, chapterState(chapter, job, needsRender(chapter, keyOf?.(chapter) ?? null, job))];
    });
  }

  /** The chapter at `index` (the path's text), or 404. */
  private chapterAt(id: string, index: string): ChapterRow {
    const chapters = this.deps.store.chapters(this.row(id).id);
    const chapter = /^[0-9]{1,4}$/.test(index) ? chapters[Number(index)] : undefined;
    if (!chapter) throw new ApiError('not_found', `The project has no chapter ${index} (its chapters are 0 to ${chapters.length - 1}).`);
    return chapter;
  }

  private row(id: string): ProjectRow {
    const row = PROJECT_ID.test(id) ? this.deps.store.get(id) : undefined;
    if (!row) throw new ApiError('project_not_found', `No project "${id}".`);
    return row;
  }

  private serially<T>(id: string, work: () => T | Promise<T>): Promise<T> {
    return this.serial.run(id, work);
  }
}
