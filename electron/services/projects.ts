import { createHash, randomUUID } from 'node:crypto';
import {
  ApiError,
  checkTitle,
  DEFAULT_OUTPUT_FORMAT,
  EXPORT_LIMITS,
  type Export,
  type ExportRequest,
  OPTION_RANGES,
  PROJECT_LIMITS,
  type Chapter,
  type ManuscriptFile,
  type Project,
  type ProjectCreate,
  type ProjectExportBody,
  type ProjectList,
  type ProjectPatch,
  type RenderResult,
} from '../contract';
import type { EngineRegistry } from '../engines/registry';
import type { JobStore } from '../jobs/store';
import { clip, cutManuscript } from '../projects/manuscript';
import { renderKey } from '../projects/render-key';
import type { ChapterRow, NewChapter, ProjectRow, ProjectSettings, ProjectStore } from '../projects/store';
import { dropJobs } from './drop-jobs';
import type { JobService } from './jobs';
import { chapterStatus, chapterView } from './project-chapters';
import { definedOnly, KeyedSerial } from './serial';
import { spokenBy, type Pronouncer, type SynthesisService } from './synthesis';

const PROJECT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface ProjectDeps {
  store: ProjectStore;
  jobStore: JobStore;
  registry: EngineRegistry;
  synthesis: SynthesisService;
  jobs: JobService;
  /** `revision` goes up at each change of the lexicon (LexiconService). */
  lexicon?: (Pronouncer & { readonly revision: number }) | undefined;
  /** Makes audiobooks of finished jobs (ExportService). */
  exports: { create(request: ExportRequest): Promise<Export> };
  /** The live text maximum (the max_text_length setting): a manuscript's length. */
  maxTextLength: () => number;
}

/**
 * Projects as the product offers them: a manuscript in chapters with the settings it is rendered
 * with; a render queues one job per chapter whose audio is missing or out of date (docs/projects.md).
 */
export class ProjectService {
  /** Changes of one project run one after another (a render while the manuscript is replaced, two renders). */
  private readonly serial = new KeyedSerial();
  /**
   * Render keys by project and chapter index, with what they were made from: the lexicon's
   * rewrite of a book's text takes about a second per 500,000 characters, and the studio reads a
   * rendering project every second; a hash of the text costs a hundredth of that.
   */
  private readonly keys = new Map<string, Map<number, { made: string; key: string }>>();

  constructor(private readonly deps: ProjectDeps) {}

  list(): ProjectList {
    return { projects: this.deps.store.list().map(({ id, chapter_count, ...rest }) => ({ project_id: id, chapter_count, ...rest })) };
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
    const { baseName, chapters } = await cutManuscript(manuscript, this.deps.maxTextLength());
    const settings = this.checked(
      { title: clip(baseName, PROJECT_LIMITS.titleChars), author: '', voice: '', ...prosodyDefaults(), format: DEFAULT_OUTPUT_FORMAT },
      change,
    );
    const now = new Date().toISOString();
    const row: ProjectRow = { id: randomUUID(), ...settings, source_name: manuscript.name.trim(), created_at: now, updated_at: now };
    store.insert(
      row,
      chapters.map((chapter) => ({ ...chapter, job_id: null, render_key: null })),
    );
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
   * new order) keeps its job; the jobs of chapters gone or changed are deleted.
   */
  replaceManuscript(id: string, file: ManuscriptFile): Promise<Project> {
    return this.serially(id, async () => {
      this.row(id);
      const { chapters } = await cutManuscript(file, this.deps.maxTextLength());
      const old = this.deps.store.chapters(id);
      const kept = new Set<ChapterRow>();
      const next: NewChapter[] = chapters.map((chapter) => {
        const same = old.find((o) => !kept.has(o) && o.text === chapter.text && o.job_id !== null);
        if (same) kept.add(same);
        return { ...chapter, job_id: same?.job_id ?? null, render_key: same?.render_key ?? null };
      });
      this.deps.store.replaceChapters(id, file.name.trim(), next, new Date().toISOString());
      await this.dropJobs(old.filter((o) => !kept.has(o)).map((o) => o.job_id));
      return this.get(id);
    });
  }

  /** Deletes a project and its chapters' jobs (running ones are cancelled first). */
  remove(id: string): Promise<void> {
    return this.serially(id, async () => {
      const jobIds = this.deps.store.chapters(this.row(id).id).map((c) => c.job_id);
      this.deps.store.delete(id);
      this.keys.delete(id);
      await this.dropJobs(jobIds);
    });
  }

  /** Queues a job for every chapter that needs one; the others are left as they are. */
  render(id: string): Promise<RenderResult> {
    return this.serially(id, async () => {
      const project = this.row(id);
      const keyOf = this.keyMaker(project);
      if (!keyOf) throw new ApiError('unknown_voice', `The voice "${project.voice}" of this project is not installed; choose another.`);
      const result: Omit<RenderResult, 'project'> = { queued: [], unchanged: [] };
      for (const chapter of this.deps.store.chapters(id)) {
        const key = keyOf(chapter);
        if (!this.needsRender(chapter, key)) {
          result.unchanged.push(chapter.idx);
          continue;
        }
        const jobId = await this.queue(project, chapter);
        this.deps.store.recordRender(id, chapter.idx, jobId, key);
        await this.dropJobs([chapter.job_id]);
        result.queued.push({ index: chapter.idx, job_id: jobId });
      }
      return { ...result, project: this.get(id) };
    });
  }

  /**
   * An audiobook of the project: every chapter's job in order, each a chapter titled as the
   * chapter, tagged with the project's title and author. Every chapter must be rendered and up to
   * date: a book with a chapter missing or stale is refused rather than made.
   */
  exportBook(id: string, body: ProjectExportBody): Promise<Export> {
    return this.serially(id, () => {
      const project = this.get(id);
      const waiting = project.chapters.filter((c) => c.status !== 'done' || c.needs_render).map((c) => c.index + 1);
      if (waiting.length > 0) {
        const which = waiting.length === 1 ? `Chapter ${waiting[0]} is` : `Chapters ${waiting.join(', ')} are`;
        throw new ApiError(
          'project_not_rendered',
          `${which} not rendered or out of date: render the project, then export once every chapter is done.`,
        );
      }
      if (project.chapters.length > EXPORT_LIMITS.jobs) {
        throw new ApiError(
          'too_many_chapters',
          `An export takes at most ${EXPORT_LIMITS.jobs} jobs; this project has ${project.chapters.length} chapters.`,
        );
      }
      return this.deps.exports.create({
        ...body,
        job_ids: project.chapters.map((c) => c.job_id!),
        title: project.title,
        ...(project.author ? { author: project.author } : {}),
        chapters: project.chapters.map((c) => ({ job_id: c.job_id!, title: c.title, text_offset: 0 })),
      });
    });
  }

  private async queue(project: ProjectRow, chapter: ChapterRow): Promise<string> {
    const { voice, rate, pitch, volume, format } = project;
    const answer = await this.deps.synthesis.synthesize({
      text: chapter.text,
      voice,
      rate,
      pitch,
      volume,
      format,
      mode: 'job',
      // an export reads samples: a compressed chapter keeps its WAV beside it
      keep_wav: format !== 'wav',
    });
    if (answer.kind !== 'job') throw new Error('A project chapter was not queued as a job.');
    this.deps.jobs.rename(answer.job.job_id, clip(`${project.title}: ${chapter.title}`, PROJECT_LIMITS.titleChars));
    return answer.job.job_id;
  }

  private needsRender(chapter: ChapterRow, key: string | null): boolean {
    if (key === null || chapter.render_key !== key || chapter.job_id === null) return true;
    const status = chapterStatus(this.deps.jobStore.get(chapter.job_id));
    return status === 'not_rendered' || status === 'failed' || status === 'expired';
  }

  /** The render key of a chapter for this project's settings; null when its voice is gone. */
  private keyMaker(project: ProjectRow): ((chapter: ChapterRow) => string) | null {
    let spoken: (text: string) => string;
    try {
      spoken = spokenBy(this.deps.lexicon, this.deps.registry.resolve({ voice: project.voice }));
    } catch {
      return null;
    }
    const { voice, rate, pitch, volume, format } = project;
    const settings = JSON.stringify([this.deps.lexicon?.revision ?? 0, voice, rate, pitch, volume, format]);
    let keys = this.keys.get(project.id);
    if (!keys) this.keys.set(project.id, (keys = new Map()));
    return (chapter) => {
      const made = `${settings}${createHash('sha256').update(chapter.text).digest('hex')}`;
      const known = keys.get(chapter.idx);
      if (known?.made === made) return known.key;
      const key = renderKey({ spoken: spoken(chapter.text), voice, rate, pitch, volume, format });
      keys.set(chapter.idx, { made, key });
      return key;
    };
  }

  private view(row: ProjectRow): Project {
    const keyOf = this.keyMaker(row);
    const chapters: Chapter[] = this.deps.store.chapters(row.id).map((chapter) => {
      const job = chapter.job_id === null ? undefined : this.deps.jobStore.get(chapter.job_id);
      return chapterView(chapter, job, this.needsRender(chapter, keyOf?.(chapter) ?? null));
    });
    const { id, ...rest } = row;
    return { project_id: id, ...rest, chapters };
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
    const voice = this.deps.registry.resolve(next.voice ? { voice: next.voice } : {}).voice.id;
    return { ...next, title: title.title, author, voice };
  }

  private row(id: string): ProjectRow {
    const row = PROJECT_ID.test(id) ? this.deps.store.get(id) : undefined;
    if (!row) throw new ApiError('project_not_found', `No project "${id}".`);
    return row;
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
