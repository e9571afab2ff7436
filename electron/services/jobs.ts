import {
  ApiError,
  checkTitle,
  codePoints,
  type FormatQuery,
  type Job,
  type JobList,
  type JobListQuery,
  type JobPeaks,
  type JobPeaksQuery,
  type JobTimings,
  type OutputFormat,
  SENTENCE_MAX_CHARS,
  type SubtitleFormat,
} from '../contract';
import { reRenderSentence } from '../jobs/sentence-edit';
import { spokenBy, withoutControls, type Pronouncer } from './synthesis';
import type { EngineRegistry } from '../engines/registry';
import { fileExists } from '../jobs/files';
import { PeaksFiles } from '../jobs/peaks-file';
import type { JobRunner } from '../jobs/runner';
import { UNFINISHED_STATES } from '../jobs/state';
import type { JobRow } from '../jobs/rows';
import type { JobStore } from '../jobs/store';
import { cuesOf, formatSubtitles } from '../jobs/subtitles';
import { jobTimings } from '../jobs/timings';
import { hasWav, isExpired, toJobView } from '../jobs/view';
import { audioAsAsked, type JobAudio } from './job-audio';
import { allJobsFeed, oneJobFeed, type JobEventFeed } from './job-events';
import { listQueryOf, pageOf } from './job-list';

const JOB_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** A sentence of a job given new text: where it was in the job's text (code points) and its new text as written. */
export interface SentenceEdited {
  jobId: string;
  span: [number, number];
  text: string;
}

/** Jobs as the product offers them, whatever the transport. */
export class JobService {
  private readonly peakFiles: PeaksFiles;
  /** Jobs with a sentence being re-rendered: one edit at a time per job. */
  private readonly editing = new Set<string>();
  /** Told of each sentence edit before it is answered (a project keeps its chapters' edits). */
  private readonly editObservers: ((edit: SentenceEdited) => Promise<void>)[] = [];

  constructor(
    private readonly store: JobStore,
    private readonly runner: JobRunner,
    private readonly registry: EngineRegistry,
    /** Hours that the audio of a new job is kept; 0 keeps it until deleted. */
    private readonly retentionHours: () => number,
    /** Applied to a sentence's new text, as to every text synthesized. */
    private readonly lexicon?: Pronouncer,
  ) {
    this.peakFiles = new PeaksFiles(runner.files);
  }

  async get(id: string): Promise<Job> {
    return toJobView(await this.withAudioChecked(this.row(id)));
  }

  /**
   * Newest first, or in the order asked for, optionally only jobs whose title or text holds `q`;
   * `cursor` continues after the last job of the previous page.
   */
  async list(params: JobListQuery): Promise<JobList> {
    const query = listQueryOf(params);
    // read with the rows: every change after it has a higher revision
    const revision = this.store.revision();
    const { rows, nextCursor } = pageOf(this.store.list(query), query);
    const jobs = await Promise.all(rows.map(async (row) => toJobView(await this.withAudioChecked(row))));
    return { jobs, ...(nextCursor ? { next_cursor: nextCursor } : {}), revision };
  }

  /**
   * When the audio of a job created now expires. The server decides, the same for every job
   * whoever asks (the studio shows the expiry): retention is the owner's setting, not the client's.
   */
  expiryOfNewJob(): string | null {
    const hours = this.retentionHours();
    return hours > 0 ? new Date(Date.now() + hours * 3_600_000).toISOString() : null;
  }

  /** Cancels a running job (it stays, failed with "cancelled"), or deletes a finished one and its audio. */
  async cancelOrDelete(id: string): Promise<Job | null> {
    const row = this.row(id);
    if (UNFINISHED_STATES.includes(row.state)) {
      this.runner.cancel(id);
      return toJobView(this.row(id));
    }
    await this.runner.delete(id);
    return null;
  }

  /** Holds an unfinished job back, its saved work kept (a project paused); false when it is finishing or not running. */
  pause(id: string): Promise<boolean> {
    return this.runner.pauseJob(this.row(id).id);
  }

  /** Takes up a paused job again, or continues a cancelled job of a series from its saved chunks. */
  async resume(id: string): Promise<Job> {
    return toJobView(await this.runner.resumeJob(this.row(id).id));
  }

  /** Gives a job a title of the user's; any job, running or ended. */
  rename(id: string, raw: string): Job {
    const checked = checkTitle(raw);
    if ('problem' in checked) throw new ApiError('invalid_request', checked.problem);
    return toJobView(this.runner.rename(this.row(id).id, checked.title));
  }

  /**
   * Queues a failed job again as a new job, which replaces it: the failed one is removed once the
   * new one is accepted, so retries do not leave twins in the list.
   */
  async retry(id: string): Promise<Job> {
    const row = this.row(id);
    if (row.state !== 'failed') throw new ApiError('invalid_request', `Job ${id} has not failed; only failed jobs can be retried.`);
    const retried = await this.runner.retry(row, this.registry.resolve({ voice: row.voice }), this.expiryOfNewJob());
    await this.runner.delete(id);
    return toJobView(retried);
  }

  observeSentenceEdits(observer: (edit: SentenceEdited) => Promise<void>): void {
    this.editObservers.push(observer);
  }

  /**
   * Gives one sentence of a finished job new text: only its chunk is synthesized again, and
   * spliced into the job's audio (jobs/sentence-edit.ts). Answers the job as it is afterwards,
   * once the observers (a project whose chapter the job is) have recorded the edit.
   */
  async editSentence(id: string, index: string, raw: string): Promise<Job> {
    const text = withoutControls(raw);
    const length = codePoints(text);
    if (length > SENTENCE_MAX_CHARS)
      throw new ApiError('text_too_long', `text has ${length} characters; the maximum is ${SENTENCE_MAX_CHARS}.`);
    // an index as the path gives it: anything but a plain number names no sentence
    if (!/^[0-9]{1,9}$/.test(index)) throw new ApiError('not_found', `No sentence "${index}" in job ${id}.`);
    return this.whileEditing(id, async () => {
      const row = await this.playableRow(id);
      const sentence = Number(index);
      const written = text.replace(/\s+/g, ' ').trim();
      const spoken = spokenBy(this.lexicon, this.registry.resolve({ voice: row.voice }))(written).text;
      const edit = { sentence, writtenLength: length, written, spoken };
      const { files, disk, renderCache: cache } = this.runner;
      const deps = { store: this.store, files, registry: this.registry, disk, cache };
      const edited = await reRenderSentence(deps, row, edit, new AbortController().signal);
      for (const observer of this.editObservers) await observer({ jobId: id, span: edited.span, text });
      return toJobView(this.runner.changed(id)!);
    });
  }

  /**
   * Runs `work` as the one change of a job's audio under way (a sentence edit, a re-render reading
   * it): another while it runs is 409 chunk_in_progress.
   */
  async whileEditing<T>(id: string, work: () => Promise<T>): Promise<T> {
    if (this.editing.has(id))
      throw new ApiError('chunk_in_progress', `A sentence of job ${id} is being re-rendered; ask again.`, { retryAfterS: 1 });
    // taken before the first await: an edit that arrives meanwhile finds it
    this.editing.add(id);
    try {
      return await work();
    } finally {
      this.editing.delete(id);
    }
  }

  /** A finished job's audio in the format asked, stored or encoded as it is sent (services/job-audio.ts), or why it cannot be. */
  async audio(id: string, request: FormatQuery = {}): Promise<JobAudio> {
    const row = await this.playableRow(id);
    return audioAsAsked(this.runner.files, row, request, () => this.audioMissing(id, 'wav'));
  }

  /** A finished job's peaks at the resolution and over the span asked for (and their file's tag), or the reason there are none. */
  async peaks(id: string, query: JobPeaksQuery = {}): Promise<{ peaks: JobPeaks; tag: string }> {
    const row = await this.playableRow(id);
    return this.peakFiles.read(id, query).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      if (hasWav(row)) throw this.audioMissing(id);
      // its audio is there, but Orator has no decoder for its format to compute them again
      throw new ApiError(
        'audio_missing',
        `The peaks file of job ${id} was removed outside Orator, and its ${row.format} audio cannot be read back to compute them.`,
      );
    });
  }

  /** Where each sentence of a finished job is in its audio and its text. */
  async timings(id: string): Promise<JobTimings> {
    const row = await this.playableRow(id);
    const timings = jobTimings(this.store.timings.layout(id), row.sample_rate!);
    if (!timings) {
      throw new ApiError('timings_unavailable', `Job ${id} was made by a version of Orator that did not keep sentence timings.`);
    }
    return timings;
  }

  /** A finished job's sentences as captions, WebVTT or SubRip: one cue per sentence, in order, within the audio. */
  async subtitles(id: string, format: SubtitleFormat): Promise<string> {
    const { sentences, duration_s } = await this.timings(id);
    return formatSubtitles(cuesOf(sentences, 0, duration_s), format);
  }

  /**
   * Records that a done job's audio is gone and returns the answer for it (410 audio_missing); audio
   * past its retention was deleted by Orator (410 audio_expired). A missing WAV kept beside a job's
   * own audio is answered alike but not recorded: the job's own file may still be there.
   */
  audioMissing(id: string, format?: OutputFormat): ApiError {
    const row = this.store.get(id);
    if (row && isExpired(row)) return expired(row);
    if (row && format !== undefined && format !== row.format) {
      return new ApiError(
        'audio_missing',
        `The WAV kept beside job ${id}'s ${row.format} audio was removed outside Orator; ask for format=${row.format}.`,
      );
    }
    const message = `The audio file of job ${id} is missing: it was removed outside Orator. Delete the job, or synthesize its text again.`;
    this.store.markAudioMissing(id, message);
    this.runner.changed(id);
    return new ApiError('audio_missing', message);
  }

  /** The events of one job, first where it stands now, ending after it is done or failed (services/job-events.ts). */
  eventsOf(id: string): JobEventFeed {
    return oneJobFeed(this.store, this.runner, this.row(id).id);
  }

  /** The events of every job, never ending; first, with `after` (Last-Event-ID), every job changed since. */
  events(after?: number): JobEventFeed {
    return allJobsFeed(this.store, this.runner, after);
  }

  private row(id: string): JobRow {
    const row = JOB_ID.test(id) ? this.store.get(id) : undefined;
    if (!row) throw notFound(id);
    return row;
  }

  /** A done job whose WAV was removed behind Orator's back is recorded as such when it is next looked at. */
  private async withAudioChecked(row: JobRow): Promise<JobRow> {
    if (row.state !== 'done' || row.audio_bytes === null || isExpired(row)) return row;
    if (await fileExists(this.runner.files.audioFile(row.id, row.format))) return row;
    this.audioMissing(row.id);
    return this.store.get(row.id)!;
  }

  /** A done job whose audio can be served, or the reason it cannot. */
  async playableRow(id: string): Promise<JobRow> {
    const row = await this.withAudioChecked(this.row(id));
    if (row.state === 'failed') throw new ApiError('job_failed', `Job ${id} failed: ${row.error_message ?? 'unknown error'}`);
    if (row.state !== 'done') {
      throw new ApiError('job_not_finished', `Job ${id} is still running (${row.chunks_done}/${row.chunks_total} chunks).`, {
        retryAfterS: 1,
      });
    }
    if (isExpired(row)) throw expired(row);
    if (row.error_code === 'audio_missing')
      throw new ApiError('audio_missing', row.error_message ?? `The audio file of job ${id} is missing.`);
    return row;
  }
}

const notFound = (id: string) => new ApiError('job_not_found', `No job "${id}".`);

function expired(row: JobRow): ApiError {
  return new ApiError('audio_expired', `The audio of job ${row.id} expired at ${row.expires_at} and was deleted.`);
}
