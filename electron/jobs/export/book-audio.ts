/**
 * The audio of an export as one stream of samples: room tone, the first job, a gap, the next job,
 * …, room tone; every job at the book's rate (the highest of its jobs', others resampled). Room
 * tone is digital silence, like the pauses the chunker puts between sentences: a noise bed only at
 * the ends would be heard starting and stopping.
 */
import { Resampler } from '../../audio/encode/resampler';
import { EXPORT_JOB_GAP_MS, type JobTimings } from '../../contract';
import { readSamples, type SampleSource } from '../transcode';

export interface BookPart {
  jobId: string;
  title: string;
  titleGiven: boolean;
  source: SampleSource;
  /** Samples in the job's file, at its own rate. */
  samples: number;
  timings: JobTimings;
}

export interface BookLayout {
  sampleRate: number;
  /** Where each part starts in the book, in samples at the book's rate. */
  starts: number[];
  /** Each part's length at the book's rate. */
  lengths: number[];
  totalSamples: number;
  headSamples: number;
  tailSamples: number;
  gapSamples: number;
}

export function layOut(parts: readonly BookPart[], headMs: number, tailMs: number): BookLayout {
  const sampleRate = Math.max(...parts.map((p) => p.source.sampleRate));
  const toSamples = (ms: number) => Math.round((ms / 1000) * sampleRate);
  const headSamples = toSamples(headMs);
  const gapSamples = toSamples(EXPORT_JOB_GAP_MS);
  const lengths = parts.map((p) => Math.round((p.samples * sampleRate) / p.source.sampleRate));
  const starts: number[] = [];
  let at = headSamples;
  lengths.forEach((length, i) => {
    starts.push(at);
    at += length + (i < lengths.length - 1 ? gapSamples : 0);
  });
  const tailSamples = toSamples(tailMs);
  return { sampleRate, starts, lengths, totalSamples: at + tailSamples, headSamples, tailSamples, gapSamples };
}

const SILENCE_BLOCK = 1 << 16;

function* silence(samples: number): Generator<Int16Array> {
  const block = new Int16Array(Math.min(SILENCE_BLOCK, Math.max(1, samples)));
  for (let left = samples; left > 0; left -= block.length) yield block.subarray(0, Math.min(left, block.length));
}

/** One part's samples at the book's rate, exactly `length` of them (a resampler may round by one). */
async function* partSamples(part: BookPart, sampleRate: number, length: number): AsyncGenerator<Int16Array> {
  const resampler = part.source.sampleRate === sampleRate ? undefined : await Resampler.create(part.source.sampleRate, sampleRate);
  let sent = 0;
  const take = function* (piece: Int16Array) {
    const fit = piece.subarray(0, Math.max(0, length - sent));
    sent += fit.length;
    if (fit.length > 0) yield fit;
  };
  try {
    for await (const piece of readSamples(part.source)) yield* take(resampler ? resampler.push(piece) : piece);
    if (resampler) yield* take(resampler.finish());
  } finally {
    resampler?.close();
  }
  if (sent < length) yield* silence(length - sent);
}

/** The whole book, in order; reads each job's file as it goes. */
export async function* bookSamples(parts: readonly BookPart[], layout: BookLayout, signal?: AbortSignal): AsyncGenerator<Int16Array> {
  yield* silence(layout.headSamples);
  for (const [i, part] of parts.entries()) {
    for await (const piece of partSamples(part, layout.sampleRate, layout.lengths[i]!)) {
      signal?.throwIfAborted();
      yield piece;
    }
    if (i < parts.length - 1) yield* silence(layout.gapSamples);
  }
  yield* silence(layout.tailSamples);
}
