import { ApiError, PROJECT_LIMITS, type ProjectDisk, type RenderPlan, type RenderResult } from '../contract';
import type { DiskBudget } from '../jobs/disk-budget';
import type { RenderCache } from '../jobs/render-cache/cache';
import type { JobState } from '../jobs/state';
import type { JobRow } from '../jobs/rows';
import type { JobStore } from '../jobs/store';
import { applyEdits } from '../projects/edits';
import { clip } from '../projects/manuscript';
import type { ChapterRow, ProjectRow, ProjectStore } from '../projects/store';
import { dropJobs } from './drop-jobs';
import type { JobService } from './jobs';
import { isContinuable, needsRender, chapterStatus } from './project-chapters';
import { assertRoomToRender, projectDisk, type DiskChapter } from './project-disk';
import type { RenderKeys, RevisedLexicon } from './render-keys';
import { planRender } from './render-plan';
import { spokenBy, type SynthesisService } from './synthesis';
import type { BookVoices } from './voices';

export interface ProjectRenderDeps {
  store: ProjectStore;
  jobStore: JobStore;
  voices: BookVoices;
  synthesis: SynthesisService;
  jobs: JobService;
  disk: DiskBudget;
  lexicon?: RevisedLexicon | undefined;
  /** The sentences kept across renders, which a render plan counts as made. */
  renderCache?: RenderCache | undefined;
  /** Chunks synthesized at once (engine threads), for a render plan's time. */
  concurrency?: number;
}

/**
 * A project's chapters as jobs: a render queues one job per chapter whose audio is missing or out
 * of date (a cancelled one goes on from its saved chunks) once the disk has room for them all; the
 * chapters' jobs are paused, resumed, cancelled and dropped together; what their audio takes on
 * disk. The caller (ProjectService) runs each of these serially per project.
 */
export class ProjectRenders {
  constructor(
    private readonly deps: ProjectRenderDeps,
    private readonly keys: RenderKeys,
  ) {}

  /** Queues a job for every chapter that needs one; the others are left as they are. */
  async render(project: ProjectRow): Promise<Omit<RenderResult, 'project'>> {
    const keyOf = this.keyMaker(project);
    const result: Omit<RenderResult, 'project'> = { queued: [], unchanged: [], excluded: [] };
    const chapters = this.deps.store.chapters(project.id);
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
      const job = this.jobOf(chapter);
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
      this.deps.store.recordRender(project.id, chapter.idx, jobId, key);
      await this.drop([chapter.job_id]);
      result.queued.push({ index: chapter.idx, job_id: jobId, continued: false });
    }
    return result;
  }

  /**
   * What a render would synthesize now: per chapter it would queue, the sentences neither its last
   * render nor the render cache holds (render-plan.ts), and about how long they take.
   */
  plan(project: ProjectRow): RenderPlan {
    const keyOf = this.keyMaker(project);
    const { voices, lexicon, jobStore } = this.deps;
    const resolved = voices.resolve({ voice: project.voice });
    const voice = { resolved, spoken: spokenBy(lexicon, resolved), entries: lexicon?.list().entries ?? [] };
    const chapters = this.deps.store.chapters(project.id).flatMap((chapter) => {
      const job = this.jobOf(chapter);
      if (!needsRender(chapter, keyOf(chapter), job)) return [];
      const index = this.keys.index(project.id, chapter, applyEdits(chapter.text, chapter.edits), resolved.voice.language);
      return [{ chapter, job, index }];
    });
    const { renderCache: cache, concurrency = 1 } = this.deps;
    return planRender({ jobStore, cache, concurrency }, project, voice, chapters);
  }

  /** Holds back every chapter being rendered; what they have synthesized is kept for `resume`. */
  async pause(projectId: string): Promise<void> {
    for (const job of this.chapterJobs(projectId, ['queued', 'running'])) await this.deps.jobs.pause(job.id);
  }

  /** Takes up again every chapter paused, in reading order. */
  async resume(projectId: string): Promise<void> {
    for (const job of this.chapterJobs(projectId, ['paused'])) await this.deps.jobs.resume(job.id);
  }

  /**
   * Stops every chapter being rendered or paused. Their finished chunks are kept: the next render
   * continues each where it stopped (unless its text or settings changed meanwhile).
   */
  async cancel(projectId: string): Promise<void> {
    for (const job of this.chapterJobs(projectId, ['queued', 'running', 'paused'])) await this.deps.jobs.cancelOrDelete(job.id);
  }

  /** Cancels (if running) and deletes jobs a project no longer uses. */
  drop(ids: (string | null)[]): Promise<void> {
    return dropJobs(this.deps.jobStore, this.deps.jobs, ids);
  }

  /** What the project's audio takes on disk: rendered, and to be rendered (project-disk.ts). */
  disk(project: ProjectRow): Promise<ProjectDisk> {
    const keyOf = this.keys.maker(project);
    return projectDisk(project, this.diskChapters(this.deps.store.chapters(project.id), keyOf), this.sampleRate(project), this.deps.disk);
  }

  /** The chapter's job, if it has one that is not deleted. */
  jobOf(chapter: ChapterRow): JobRow | undefined {
    return chapter.job_id === null ? undefined : this.deps.jobStore.get(chapter.job_id);
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

  private diskChapters(chapters: readonly ChapterRow[], keyOf: ((chapter: ChapterRow) => string) | null): DiskChapter[] {
    return chapters.map((chapter) => {
      const job = this.jobOf(chapter);
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

  /** The jobs of the project's chapters in these states, in reading order. */
  private chapterJobs(projectId: string, states: JobState[]): JobRow[] {
    return this.deps.store
      .chapters(projectId)
      .map((chapter) => this.jobOf(chapter))
      .filter((job): job is JobRow => job !== undefined && states.includes(job.state));
  }
}
