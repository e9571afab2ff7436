import { randomInt, randomUUID } from 'node:crypto';
import { chmod, copyFile, mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { measureLoudness } from '../audio/loudness';
import { decodeWav, durationSeconds } from '../audio/wav';
import { ApiError, checkTitle, codePoints, COMPARE_LIMITS, type CompareTake, type JobTimings, type PairChoice } from '../contract';
import type { JobRow } from '../jobs/rows';
import type { SessionSource, TakeAudio, TakeRow } from '../storage/compare-store';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/private-files';

/** Where sessions keep their takes' audio: one folder per session, one WAV per take. */
export class CompareFiles {
  constructor(private readonly dataDir: string) {}

  dir(sessionId: string): string {
    return path.join(this.dataDir, 'compare', sessionId);
  }

  audioFile(sessionId: string, takeId: string): string {
    return path.join(this.dir(sessionId), `${takeId}.wav`);
  }

  /** Copies a finished job's WAV into the session and measures it: the job may go afterwards. */
  async adopt(sessionId: string, takeId: string, jobWav: string, timings: JobTimings | null, engine: string): Promise<TakeAudio> {
    const file = await readFile(jobWav);
    const pcm = decodeWav(file);
    const lufs = measureLoudness(pcm.samples, pcm.sampleRate).integratedLufs;
    await mkdir(this.dir(sessionId), { recursive: true, mode: PRIVATE_DIR_MODE });
    const target = this.audioFile(sessionId, takeId);
    await copyFile(jobWav, target);
    await chmod(target, PRIVATE_FILE_MODE);
    return {
      engine,
      duration_s: durationSeconds(pcm.sampleRate, pcm.samples.byteLength),
      loudness_lufs: Number.isFinite(lufs) ? lufs : null,
      timings,
    };
  }

  /** A take's audio copied to another session's take (duplicate). */
  async copy(from: { session: string; take: string }, to: { session: string; take: string }): Promise<void> {
    await mkdir(this.dir(to.session), { recursive: true, mode: PRIVATE_DIR_MODE });
    await copyFile(this.audioFile(from.session, from.take), this.audioFile(to.session, to.take));
  }

  async remove(sessionId: string, takeIds?: readonly string[]): Promise<void> {
    if (!takeIds) return rm(this.dir(sessionId), { recursive: true, force: true });
    for (const take of takeIds) await rm(this.audioFile(sessionId, take), { force: true });
  }
}

export const newTake = (text_index: number, voice: string): TakeRow => ({
  id: randomUUID(),
  text_index,
  voice,
  job_id: null,
  audio: null,
  error: null,
  ...freshVerdict(),
});

export const freshVerdict = () => ({ rating: null, note: '', sentence_ratings: [] as (number | null)[] });

/** A take that holds something a listener would miss: audio, a verdict, or a job on its way. */
export const holdsWork = (take: TakeRow) =>
  take.audio !== null || take.job_id !== null || take.rating !== null || take.note !== '' || take.sentence_ratings.some((r) => r !== null);

/**
 * The takes a session spoken from `next` has: one per text and voice, in text then voice order.
 * A take of `old` whose text (by its words, wherever it moved) and voice are still asked for, at
 * the same prosody, is kept with its audio and verdict; the others are `dropped`.
 */
export function planTakes(old: SessionSource, oldTakes: readonly TakeRow[], next: SessionSource): { takes: TakeRow[]; dropped: TakeRow[] } {
  const sameProsody = old.rate === next.rate && old.pitch === next.pitch && old.volume === next.volume;
  const unused = new Set(sameProsody ? oldTakes : []);
  const takes = next.texts.flatMap((text, text_index) =>
    next.voices.map((voice) => {
      const kept = [...unused].find((t) => t.voice === voice && old.texts[t.text_index] === text);
      if (!kept) return newTake(text_index, voice);
      unused.delete(kept);
      return { ...kept, text_index };
    }),
  );
  const keptIds = new Set(takes.map((t) => t.id));
  return { takes, dropped: oldTakes.filter((t) => !keptIds.has(t.id)) };
}

/**
 * A take as the API shows it, its status from its audio, else its job. A finished job that the
 * take has not taken up yet (its audio or its failure) is still running: a session read takes it
 * up, but the job may finish while that read takes up the others' (a client reads again only
 * while something runs).
 */
export function takeView(take: TakeRow, job: JobRow | undefined): CompareTake {
  const status = take.audio ? 'ready' : job && job.state !== 'paused' ? 'running' : take.error ? 'failed' : 'pending';
  const done = take.audio ? 1 : (job?.chunks_done ?? 0);
  const total = take.audio ? 1 : (job?.chunks_total ?? 0);
  return {
    take_id: take.id,
    text_index: take.text_index,
    voice: take.voice,
    status,
    progress: { done, total },
    ...(take.job_id ? { job_id: take.job_id } : {}),
    ...(take.error && !take.audio ? { error: take.error } : {}),
    ...(take.audio
      ? {
          engine: take.audio.engine,
          duration_s: take.audio.duration_s,
          loudness_lufs: take.audio.loudness_lufs,
          ...(take.audio.timings ? { timings: take.audio.timings } : {}),
        }
      : {}),
    rating: take.rating,
    note: take.note,
    sentence_ratings: take.sentence_ratings,
  };
}

/** Take ids in listening order: shuffled over the whole session when blind (every order equally likely). */
export function listening(takes: readonly TakeRow[], blind: boolean): string[] {
  const ids = takes.map((t) => t.id);
  if (!blind) return ids;
  for (let i = ids.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [ids[i], ids[j]] = [ids[j]!, ids[i]!];
  }
  return ids;
}

export function checkedName(raw: string): string {
  const checked = checkTitle(raw);
  if ('problem' in checked) throw new ApiError('invalid_request', `"name": ${checked.problem}`);
  return checked.title;
}

export function checkedNote(raw: string): string {
  const note = raw.trim();
  if (/[\p{Cc}\u2028\u2029]/u.test(note))
    throw new ApiError('invalid_request', '"note" is one line: no control characters or line breaks.');
  if (codePoints(note) > COMPARE_LIMITS.noteChars)
    throw new ApiError('invalid_request', `"note" has at most ${COMPARE_LIMITS.noteChars} characters.`);
  return note;
}

/** Choices between two different takes of the session, the winner one of them. */
export function checkedPairs(pairs: PairChoice[], ids: ReadonlySet<string>): PairChoice[] {
  for (const { a, b, winner } of pairs) {
    if (a === b || (winner !== a && winner !== b) || !ids.has(a) || !ids.has(b)) {
      throw new ApiError(
        'invalid_request',
        'A pairwise choice is between two different takes of the session, and its winner is one of them.',
      );
    }
  }
  return pairs;
}
