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
  /**
   * Where the book is cut into segments, one per part (n + 1 points, from 0 to the end): in the
   * middle of the silence between two parts, each segment a whole number of `frameSamples` but
   * the last, so that each can be encoded on its own and the frames joined (segments.ts).
   */
  cuts: number[];
  totalSamples: number;
}

/**
 * Room tone, the parts with EXPORT_JOB_GAP_MS between them, room tone. With `frameSamples` above
 * 1 (an AAC frame), each gap grows by less than a frame so that every cut falls on a frame.
 */
export function layOut(parts: readonly BookPart[], headMs: number, tailMs: number, frameSamples = 1): BookLayout {
  const sampleRate = Math.max(...parts.map((p) => p.source.sampleRate));
  const toSamples = (ms: number) => Math.round((ms / 1000) * sampleRate);
  const gap = toSamples(EXPORT_JOB_GAP_MS);
  const lead = Math.floor(gap / 2);
  const lengths = parts.map((p) => Math.round((p.samples * sampleRate) / p.source.sampleRate));
  const starts: number[] = [];
  const cuts = [0];
  let at = toSamples(headMs);
  lengths.forEach((length, i) => {
    starts.push(at);
    if (i === lengths.length - 1) return;
    const end = at + length + gap - lead;
    const cut = Math.ceil(end / frameSamples) * frameSamples;
    cuts.push(cut);
    at = cut + lead;
  });
  const totalSamples = starts.at(-1)! + lengths.at(-1)! + toSamples(tailMs);
  cuts.push(totalSamples);
  return { sampleRate, starts, lengths, cuts, totalSamples };
}

const SILENCE_BLOCK = 1 << 16;

function* silence(samples: number): Generator<Int16Array> {
  const block = new Int16Array(Math.min(SILENCE_BLOCK, Math.max(1, samples)));
  for (let left = samples; left > 0; left -= block.length) yield block.subarray(0, Math.min(left, block.length));
}

/**
 * One part's samples at the book's rate, exactly `length` of them (a resampler may round by one)
 * after the first `skip` (a chapter that starts in the middle of its job).
 */
async function* partSamples(source: SampleSource, sampleRate: number, length: number, skip = 0): AsyncGenerator<Int16Array> {
  const resampler = source.sampleRate === sampleRate ? undefined : await Resampler.create(source.sampleRate, sampleRate);
  let sent = -skip;
  const take = function* (piece: Int16Array) {
    const fit = piece.subarray(Math.max(0, -sent), Math.max(0, length - sent));
    sent += piece.length;
    if (fit.length > 0) yield fit;
  };
  try {
    for await (const piece of readSamples(source)) {
      yield* take(resampler ? resampler.push(piece) : piece);
      if (sent >= length) break;
    }
    if (resampler) yield* take(resampler.finish());
  } finally {
    resampler?.close();
  }
  if (sent < length) yield* silence(length - Math.max(0, sent));
}

/** What a segment of the book is made of: silence, a part's samples at the book's rate, silence. */
export interface Segment {
  source: SampleSource;
  sampleRate: number;
  lead: number;
  /** The part's samples left out at its start (absent: none). */
  skip?: number;
  length: number;
  trail: number;
}

/** Segment `i` of the book: from its cut, the silence before its part, the part, the silence to the next cut. */
export function segmentOf(parts: readonly BookPart[], layout: BookLayout, i: number): Segment {
  const start = layout.starts[i]!;
  const length = layout.lengths[i]!;
  const lead = start - layout.cuts[i]!;
  return { source: parts[i]!.source, sampleRate: layout.sampleRate, lead, length, trail: layout.cuts[i + 1]! - start - length };
}

/**
 * The samples from `from` to `to` of the book as a segment: a chapter, which lies in one part and
 * the silence around it (every part starts a chapter: chapters.ts).
 */
export function sliceOf(parts: readonly BookPart[], layout: BookLayout, from: number, to: number): Segment {
  const i = Math.max(
    0,
    layout.starts.findLastIndex((start) => start <= from),
  );
  const start = layout.starts[i]!;
  const lead = Math.max(0, start - from);
  const length = Math.max(0, Math.min(start + layout.lengths[i]!, to) - Math.max(start, from));
  const skip = Math.max(0, from - start);
  return {
    source: parts[i]!.source,
    sampleRate: layout.sampleRate,
    lead,
    ...(skip > 0 ? { skip } : {}),
    length,
    trail: to - from - lead - length,
  };
}

export async function* segmentSamples(segment: Segment, signal?: AbortSignal): AsyncGenerator<Int16Array> {
  yield* silence(segment.lead);
  for await (const piece of partSamples(segment.source, segment.sampleRate, segment.length, segment.skip)) {
    signal?.throwIfAborted();
    yield piece;
  }
  yield* silence(segment.trail);
}

/** The whole book, in order; reads each job's file as it goes. */
export async function* bookSamples(parts: readonly BookPart[], layout: BookLayout, signal?: AbortSignal): AsyncGenerator<Int16Array> {
  for (let i = 0; i < parts.length; i++) yield* segmentSamples(segmentOf(parts, layout, i), signal);
}
