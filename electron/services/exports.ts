/**
 * Audiobook exports as the product offers them: asked for with finished jobs, made one at a time
 * in the background (progress like a job's), kept as files in the data folder until deleted.
 */
import { randomUUID } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { ApiError, EXPORT_MEDIA, exportFilePath, type Export, type ExportRequest, type SubtitleFormat } from '../contract';
import { DiskFull, type DiskBudget } from '../jobs/disk-budget';
import type { BookPart } from '../jobs/export/book-audio';
import type { ExportRecord, ExportStore } from '../jobs/export/export-store';
import { renderExport } from '../jobs/export/render';
import { segmentedAt, type SegmentWork } from '../jobs/export/segments';
import { bookBytes, doneFields, type PlannedBook } from './export-book';
import { checkedPlan, specOf } from './export-request';
import type { JobFiles } from '../jobs/files';
import type { JobStore } from '../jobs/store';
import { sampleSource } from '../jobs/transcode';
import type { JobService } from './jobs';

/** The chapter title of a job that renders a project's chapter (ProjectStore), else undefined. */
export type ChapterTitleOfJob = (jobId: string) => string | undefined;

/**
 * What an export holds from its acceptance to its end, given by the transport (gateway/slots.ts):
 * its place among the exports its key may have, and an encoder while it is being made.
 */
export interface ExportHold {
  /** Gives its place back (the export ended: done, failed, deleted, or the gateway stopping); safe to call twice. */
  release(): void;
  /** An encoder once one is free, when the export's turn to be made comes; resolves with its release. */
  encoder(signal: AbortSignal): Promise<() => void>;
}

export class ExportService {
  private readonly records = new Map<string, ExportRecord>();
  private readonly progress = new Map<string, number>();
  private readonly running = new Map<string, AbortController>();
  /** Exports are made one after another: each takes every core (its segments are encoded side by side). */
  private queue: Promise<void> = Promise.resolve();

  private constructor(
    private readonly store: ExportStore,
    private readonly jobs: JobService,
    private readonly jobStore: JobStore,
    private readonly files: JobFiles,
    private readonly disk: DiskBudget,
    private readonly chapterTitle: ChapterTitleOfJob,
    private readonly work: SegmentWork | undefined,
  ) {}

  static async open(
    store: ExportStore,
    jobs: JobService,
    jobStore: JobStore,
    files: JobFiles,
    disk: DiskBudget,
    chapterTitle: ChapterTitleOfJob,
    /** The export threads and the kept segments of books (jobs/export/segments.ts). */
    work?: SegmentWork,
  ): Promise<ExportService> {
    const service = new ExportService(store, jobs, jobStore, files, disk, chapterTitle, work);
    for (const record of await store.load()) service.records.set(record.export_id, record);
    return service;
  }

  /** Accepts an export, which holds `hold` until it ends (released at once when it is refused). */
  async create(request: ExportRequest, hold: ExportHold): Promise<Export> {
    try {
      return await this.accept(request, hold);
    } catch (error) {
      hold.release();
      throw error;
    }
  }

  private async accept(request: ExportRequest, hold: ExportHold): Promise<Export> {
    const spec = specOf(request);
    const parts = await this.partsOf(request);
    const { plan, seconds } = checkedPlan(request, parts, spec);
    spec.title = request.title ?? plan.chapters[0]!.title;
    const id = randomUUID();
    const segmented = this.work !== undefined && segmentedAt(spec.format, plan.layout.sampleRate);
    await this.disk.reserve(exportDiskKey(id), bookBytes(spec, seconds, segmented), EXPORT_WORDING);
    const record: ExportRecord = {
      export_id: id,
      status: 'running',
      format: spec.format,
      title: spec.title,
      ...(spec.author ? { author: spec.author } : {}),
      job_ids: request.job_ids,
      created_at: new Date().toISOString(),
      chapters: plan.chapters.map((c) => ({ title: c.title, start_s: Math.round((c.startSample / plan.layout.sampleRate) * 1000) / 1000 })),
    };
    await this.store.save(record).catch((error: unknown) => {
      this.disk.release(exportDiskKey(id));
      throw error;
    });
    this.records.set(id, record);
    this.progress.set(id, 0);
    const controller = new AbortController();
    // deleted before its turn, it gives its place and its disk back at once
    controller.signal.addEventListener('abort', () => (hold.release(), this.disk.release(exportDiskKey(id))), { once: true });
    this.running.set(id, controller);
    this.queue = this.queue.then(() => this.make(record, { parts, spec, plan }, hold, controller.signal));
    // a record that cannot be saved must not stop the exports queued after it
    this.queue = this.queue.catch((error: unknown) => console.error(`Orator could not record export ${id}:`, error));
    return this.view(record);
  }

  /** Makes an accepted export in its turn, holding an encoder, and records how it ended. */
  private async make(record: ExportRecord, book: PlannedBook, hold: ExportHold, signal: AbortSignal): Promise<void> {
    const id = record.export_id;
    if (signal.aborted) return;
    const key = exportDiskKey(id);
    const files = {
      audio: this.store.audioFile(id, book.spec.format),
      vtt: this.store.subtitleFile(id, 'vtt'),
      srt: this.store.subtitleFile(id, 'srt'),
    };
    let releaseEncoder = () => {};
    let ended: Partial<ExportRecord>;
    try {
      releaseEncoder = await hold.encoder(signal);
      const progress = (fraction: number) => this.progress.set(id, fraction);
      const room = (bytes: number) => this.disk.write(key, bytes);
      const loudness = await renderExport(book.parts, book.spec, book.plan, files, progress, signal, room, this.work);
      const name = `${safeName(book.spec.title)}.${EXPORT_MEDIA[book.spec.format].extension}`;
      ended = doneFields(book, name, (await stat(files.audio)).size, loudness);
    } catch (error) {
      if (signal.aborted) return;
      console.error(`Orator could not make export ${id}:`, error);
      // the disk ran out: its reserve makes room to record why
      if (error instanceof DiskFull) this.disk.releaseReserve();
      ended = {
        status: 'failed',
        finished_at: new Date().toISOString(),
        error: { code: error instanceof DiskFull ? error.code : 'export_error', message: (error as Error).message },
      };
    } finally {
      releaseEncoder();
      hold.release();
      this.disk.release(key);
      this.running.delete(id);
    }
    // how it ended is shown once it is saved (a client that sees it can rely on the files), and
    // shown even if the save fails, so that it never stays "running"
    try {
      if (this.records.has(id)) await this.store.save({ ...record, ...ended });
    } finally {
      Object.assign(record, ended);
    }
  }

  get(id: string): Export {
    return this.view(this.record(id));
  }

  list(): Export[] {
    return [...this.records.values()].reverse().map((record) => this.view(record));
  }

  /** A finished export's file, or why there is none yet. */
  file(id: string): { path: string; name: string; contentType: string } {
    const record = this.finished(id);
    return { path: this.store.audioFile(id, record.format), name: record.file!.name, contentType: record.file!.content_type };
  }

  subtitles(id: string, format: SubtitleFormat): { path: string; name: string } {
    const record = this.finished(id);
    return { path: this.store.subtitleFile(id, format), name: `${safeName(record.title)}.${format}` };
  }

  /** Stops an export being made, or deletes a finished one; its files go either way. */
  async remove(id: string): Promise<void> {
    const record = this.record(id);
    this.running.get(id)?.abort();
    this.running.delete(id);
    this.records.delete(id);
    this.progress.delete(id);
    await this.store.remove(record);
  }

  /** Stops the export being made (the gateway is stopping): the next start records it interrupted. */
  async close(): Promise<void> {
    for (const controller of this.running.values()) controller.abort();
    await this.queue;
  }

  private record(id: string): ExportRecord {
    const record = this.store.isId(id) ? this.records.get(id) : undefined;
    if (!record) throw new ApiError('export_not_found', `No export "${id}".`);
    return record;
  }

  private finished(id: string): ExportRecord {
    const record = this.record(id);
    if (record.status === 'running') {
      throw new ApiError('export_not_finished', `Export ${id} is still being made (${Math.round((this.progress.get(id) ?? 0) * 100)} %).`, {
        retryAfterS: 1,
      });
    }
    if (record.status === 'failed') throw new ApiError('export_failed', `Export ${id} failed: ${record.error?.message ?? 'unknown error'}`);
    return record;
  }

  private view(record: ExportRecord): Export {
    const { file, ...rest } = record;
    const progress = record.status === 'done' ? 1 : record.status === 'failed' ? 0 : (this.progress.get(record.export_id) ?? 0);
    return {
      ...rest,
      progress: Math.round(progress * 1000) / 1000,
      ...(file ? { file: { url: exportFilePath(record.export_id), ...file } } : {}),
    };
  }

  /** Each job's audio and timings, or the reason it cannot be in a book (the job routes' errors). */
  private async partsOf(request: ExportRequest): Promise<BookPart[]> {
    const duplicate = request.job_ids.find((id, i) => request.job_ids.indexOf(id) !== i);
    if (duplicate) throw new ApiError('invalid_request', `Job ${duplicate} is listed twice in job_ids.`);
    const parts: BookPart[] = [];
    for (const jobId of request.job_ids) {
      const timings = await this.jobs.timings(jobId);
      const row = this.jobStore.get(jobId)!;
      const source = sampleSource(this.files, row);
      if (!source) {
        throw new ApiError(
          'format_unavailable',
          `Job ${jobId} keeps its audio only as ${row.format}: an export needs plain samples (a wav or pcm job, or one queued with keep_wav: true).`,
        );
      }
      const bytes = await stat(source.file).then(
        (s) => s.size,
        () => {
          throw this.jobs.audioMissing(jobId, 'wav');
        },
      );
      const samples = Math.floor((bytes - source.offset) / 2);
      // a project's job is titled "Book: Chapter" in the job list; in the book it is the chapter
      const chapter = this.chapterTitle(jobId);
      const title = chapter ?? row.custom_title ?? row.title;
      parts.push({ jobId, title, titleGiven: chapter !== undefined || row.custom_title !== null, source, samples, timings });
    }
    return parts;
  }
}

/** The disk ledger's key of an export's reservation (jobs/disk-budget.ts). */
const exportDiskKey = (id: string) => `export:${id}`;

const EXPORT_WORDING = { what: 'This export', advice: 'Free some space, or delete finished exports or jobs.' };

/** A download's file name: the title, without characters file systems or headers refuse. */
function safeName(title: string): string {
  return [...title.replace(/[\\/:*?"<>|\p{Cc}]/gu, '_').trim()].slice(0, 100).join('') || 'audiobook';
}
