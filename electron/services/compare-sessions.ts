import { randomUUID } from 'node:crypto';
import {
  ApiError,
  codePoints,
  COMPARE_LIMITS,
  type CompareDuplicate,
  type CompareSession,
  type CompareSessionCreate,
  type CompareSessionList,
  type CompareSessionPatch,
  type CompareTake,
  type CompareTakePatch,
  OPTION_RANGES,
} from '../contract';
import type { EngineRegistry } from '../engines/registry';
import type { JobStore } from '../jobs/store';
import type { CompareStore, SessionRow, SessionSource, TakeRow } from '../storage/compare-store';
import { checkedName, checkedNote, checkedPairs, CompareFiles, holdsWork, listening, planTakes, takeView } from './compare-takes';
import { dropJobs } from './drop-jobs';
import type { JobService } from './jobs';
import { definedOnly, KeyedSerial } from './serial';
import { withoutControls, type SynthesisService } from './synthesis';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export interface CompareDeps {
  store: CompareStore;
  jobStore: JobStore;
  registry: EngineRegistry;
  synthesis: SynthesisService;
  jobs: JobService;
  /** A finished job's WAV (JobFiles). */
  jobWav: (jobId: string) => string;
  dataDir: string;
}

/**
 * Compare sessions (QA listening): texts in many voices, each take synthesized as a job and its
 * audio then kept with the session, so a session reopens days later without synthesizing again.
 */
export class CompareService {
  private readonly serial = new KeyedSerial();
  readonly files: CompareFiles;

  constructor(private readonly deps: CompareDeps) {
    this.files = new CompareFiles(deps.dataDir);
  }

  list(): CompareSessionList {
    return { sessions: this.deps.store.list().map(({ id, ...rest }) => ({ session_id: id, ...rest })) };
  }

  /** The session; takes whose job finished get its audio now (and the job is deleted). */
  get(id: string): Promise<CompareSession> {
    return this.serial.run(id, async () => {
      const session = this.row(id);
      for (const take of this.deps.store.takes(id)) await this.settle(session, take);
      return this.view(this.row(id));
    });
  }

  async create(body: CompareSessionCreate): Promise<CompareSession> {
    const { store } = this.deps;
    if (store.count() >= COMPARE_LIMITS.sessions) {
      throw new ApiError(
        'too_many_sessions',
        `There are ${COMPARE_LIMITS.sessions} compare sessions, the most a data folder holds; delete one first.`,
      );
    }
    const now = new Date().toISOString();
    const source = this.checkedSource({ texts: body.texts, voices: body.voices, ...prosodyOf(body) });
    const blind = body.blind ?? false;
    const takes = planTakes(source, [], source).takes;
    const session: SessionRow = {
      id: randomUUID(),
      name: checkedName(body.name ?? `Session ${now.slice(0, 16).replace('T', ' ')}`),
      ...source,
      blind,
      revealed: !blind,
      loudness_match: body.loudness_match ?? true,
      take_order: listening(takes, blind),
      pairs: [],
      created_at: now,
      updated_at: now,
    };
    store.save(session, takes);
    return this.view(session);
  }

  update(id: string, patch: CompareSessionPatch): Promise<CompareSession> {
    return this.serial.run(id, async () => {
      const old = this.row(id);
      const oldTakes = this.deps.store.takes(id);
      const source = this.checkedSource({ ...old, ...definedOnly({ texts: patch.texts, voices: patch.voices }), ...prosodyOf(patch, old) });
      const { takes, dropped } = planTakes(old, oldTakes, source);
      const lost = dropped.filter(holdsWork);
      if (lost.length > 0 && !patch.replace_takes) {
        throw new ApiError(
          'takes_would_be_replaced',
          `This change would drop ${lost.length} take${lost.length === 1 ? '' : 's'} with audio or a verdict; send "replace_takes": true to go ahead.`,
        );
      }
      const blind = patch.blind ?? old.blind;
      const reshuffle = blind !== old.blind || dropped.length > 0 || takes.length !== oldTakes.length;
      const ids = new Set(takes.map((t) => t.id));
      const session: SessionRow = {
        ...old,
        ...source,
        name: patch.name === undefined ? old.name : checkedName(patch.name),
        blind,
        // a session made blind starts hidden; one not blind has nothing to hide
        revealed: !blind || (old.blind && (patch.revealed ?? old.revealed)),
        loudness_match: patch.loudness_match ?? old.loudness_match,
        take_order: reshuffle ? listening(takes, blind) : old.take_order,
        pairs: patch.pairs ? checkedPairs(patch.pairs, ids) : old.pairs.filter(({ a, b }) => ids.has(a) && ids.has(b)),
        updated_at: new Date().toISOString(),
      };
      this.deps.store.save(session, takes);
      await this.discard(id, dropped);
      return this.view(session);
    });
  }

  /** A copy with the same texts, voices and takes' audio, and a fresh verdict: to listen again, say blind. */
  duplicate(id: string, body: CompareDuplicate): Promise<CompareSession> {
    return this.serial.run(id, async () => {
      const old = this.row(id);
      const copy = await this.create({ ...old, name: body.name ?? `${old.name} (copy)`.slice(0, COMPARE_LIMITS.nameChars) });
      const fresh = this.deps.store.takes(copy.session_id);
      for (const [i, take] of this.deps.store.takes(id).entries()) {
        const target = fresh[i]!;
        if (!take.audio) continue;
        await this.files.copy({ session: id, take: take.id }, { session: copy.session_id, take: target.id });
        this.deps.store.updateTake(copy.session_id, { ...target, audio: take.audio }, copy.updated_at);
      }
      return this.view(this.row(copy.session_id));
    });
  }

  /** Deletes a session, its takes' audio and any job still making one. */
  remove(id: string): Promise<void> {
    return this.serial.run(id, async () => {
      this.row(id);
      const takes = this.deps.store.takes(id);
      this.deps.store.delete(id);
      await dropJobs(
        this.deps.jobStore,
        this.deps.jobs,
        takes.map((t) => t.job_id),
      );
      await this.files.remove(id);
    });
  }

  /** Queues a job for every take without audio or a job on its way; the others are left as they are. */
  synthesize(id: string): Promise<CompareSession> {
    return this.serial.run(id, async () => {
      const session = this.row(id);
      for (const take of this.deps.store.takes(id)) {
        const job = take.job_id ? this.deps.jobStore.get(take.job_id) : undefined;
        if (take.audio || (job && (job.state === 'queued' || job.state === 'running' || job.state === 'done'))) continue;
        const answer = await this.deps.synthesis.synthesize({
          text: session.texts[take.text_index]!,
          voice: take.voice,
          rate: session.rate,
          pitch: session.pitch,
          volume: session.volume,
          mode: 'job',
          format: 'wav',
        });
        if (answer.kind !== 'job') throw new Error('A compare take was not queued as a job.');
        this.deps.jobs.rename(answer.job.job_id, `Compare: ${session.name}`.slice(0, COMPARE_LIMITS.nameChars));
        // recorded at once: a full queue stops the loop with the takes before it queued
        this.deps.store.updateTake(id, { ...take, job_id: answer.job.job_id, error: null }, new Date().toISOString());
      }
      return this.view(this.row(id));
    });
  }

  updateTake(id: string, takeId: string, patch: CompareTakePatch): Promise<CompareTake> {
    return this.serial.run(id, () => {
      const take = this.take(id, takeId);
      const note = patch.note === undefined ? take.note : checkedNote(patch.note);
      const next = { ...take, ...definedOnly({ rating: patch.rating, sentence_ratings: patch.sentence_ratings }), note };
      this.deps.store.updateTake(id, next, new Date().toISOString());
      return takeView(next, undefined);
    });
  }

  /** A ready take's WAV. */
  takeAudio(id: string, takeId: string): string {
    const take = this.take(id, takeId);
    if (!take.audio) throw new ApiError('take_not_ready', `Take ${takeId} has no audio yet: synthesize the session and wait for it.`);
    return this.files.audioFile(id, takeId);
  }

  /** Takes up the audio of a take's finished job (or its failure), then lets the job go. */
  private async settle(session: SessionRow, take: TakeRow): Promise<void> {
    const job = take.job_id ? this.deps.jobStore.get(take.job_id) : undefined;
    if (take.audio || !job || (job.state !== 'done' && job.state !== 'failed')) return;
    let next: TakeRow;
    if (job.state === 'failed') {
      next = { ...take, job_id: null, error: { code: job.error_code ?? 'job_failed', message: job.error_message ?? 'The take failed.' } };
    } else {
      try {
        const timings = await this.deps.jobs.timings(job.id).catch(() => null);
        const audio = await this.files.adopt(session.id, take.id, this.deps.jobWav(job.id), timings, job.engine);
        next = { ...take, job_id: null, audio, error: null };
      } catch (error) {
        const message = error instanceof ApiError ? error.message : `The take's audio could not be read: ${(error as Error).message}`;
        next = { ...take, job_id: null, error: { code: error instanceof ApiError ? error.code : 'audio_missing', message } };
      }
    }
    this.deps.store.updateTake(session.id, next, new Date().toISOString());
    await dropJobs(this.deps.jobStore, this.deps.jobs, [job.id]);
  }

  private async discard(id: string, dropped: readonly TakeRow[]): Promise<void> {
    await dropJobs(
      this.deps.jobStore,
      this.deps.jobs,
      dropped.map((t) => t.job_id),
    );
    await this.files.remove(
      id,
      dropped.map((t) => t.id),
    );
  }

  private view(row: SessionRow): CompareSession {
    const { id, take_order, ...rest } = row;
    const takes = this.deps.store.takes(id).map((take) => takeView(take, take.job_id ? this.deps.jobStore.get(take.job_id) : undefined));
    return { session_id: id, ...rest, order: take_order, takes };
  }

  /** Texts without control characters, each speakable, within the length; voices installed, each once. */
  private checkedSource(source: SessionSource): SessionSource {
    const texts = source.texts.map((text) => withoutControls(text));
    if (texts.some((text) => !text.trim())) throw new ApiError('invalid_request', 'Every text needs at least one visible character.');
    const length = texts.reduce((sum, text) => sum + codePoints(text), 0);
    if (length > COMPARE_LIMITS.textChars) {
      throw new ApiError(
        'text_too_long',
        `A session's texts hold at most ${COMPARE_LIMITS.textChars} characters together; these hold ${length}.`,
      );
    }
    const voices = source.voices.map((voice) => this.deps.registry.resolve({ voice }).voice.id);
    const twice = voices.find((voice, i) => voices.indexOf(voice) !== i);
    if (twice) throw new ApiError('invalid_request', `The voice "${twice}" is listed twice.`);
    return { ...source, texts, voices };
  }

  private row(id: string): SessionRow {
    const row = UUID.test(id) ? this.deps.store.get(id) : undefined;
    if (!row) throw new ApiError('session_not_found', `No compare session "${id}".`);
    return row;
  }

  private take(id: string, takeId: string): TakeRow {
    this.row(id);
    const take = this.deps.store.takes(id).find((t) => t.id === takeId);
    if (!take) throw new ApiError('take_not_found', `Session ${id} has no take "${takeId}".`);
    return take;
  }
}

function prosodyOf(body: { rate?: number; pitch?: number; volume?: number }, base?: SessionSource) {
  return {
    rate: body.rate ?? base?.rate ?? OPTION_RANGES.rate.default,
    pitch: body.pitch ?? base?.pitch ?? OPTION_RANGES.pitch.default,
    volume: body.volume ?? base?.volume ?? OPTION_RANGES.volume.default,
  };
}
