/**
 * Where the sentences of one stretch of speech begin and end. Engines pause between sentences, so
 * each boundary is put in the longest pause near where the sentences' lengths in characters place
 * it; where no pause is near (a voice that runs sentences together), it stays at that estimate.
 */

import { windowPeaks } from './peak';

/** Analysis frames of 10 ms. */
const FRAMES_PER_SECOND = 100;
/** A pause is at least 60 ms below the silence level: shorter dips are within words. */
const MIN_PAUSE_FRAMES = 6;
/** Silence: below 2 % of the loudest frame, and never above this (of 32,768). */
const RELATIVE_SILENCE = 0.02;
const FLOOR = 60;

/** [start, end) of each sentence in samples, from the start of `samples`. */
export type SampleRange = [start: number, end: number];

interface Pause {
  start: number;
  end: number;
}

/**
 * Splits `samples` among sentences of the given weights (their characters): the speech runs from
 * the first to the last frame above silence, and each boundary between two sentences takes the
 * longest pause within half a sentence of its estimate; the sentence before ends where the pause
 * starts, the next starts where it ends.
 */
export function splitAtPauses(samples: Int16Array, sampleRate: number, sentenceWeights: readonly number[]): SampleRange[] {
  if (sentenceWeights.length === 0) return [];
  // weights of nothing (not expected: a sentence has characters) count as equal
  const weights = sentenceWeights.some((w) => w > 0) ? sentenceWeights : sentenceWeights.map(() => 1);
  const total = weights.reduce((a, b) => a + b, 0);
  const frame = Math.max(1, Math.round(sampleRate / FRAMES_PER_SECOND));
  const levels = windowPeaks(samples, 0, frame);
  const silence = Math.min(FLOOR, levels.reduce((a, b) => (a > b ? a : b), 0) * RELATIVE_SILENCE) || 1;
  const first = levels.findIndex((level) => level >= silence);
  if (first < 0) return splitByWeight(samples.length, weights);
  const last = levels.findLastIndex((level) => level >= silence);
  const speech = { start: first * frame, end: Math.min(samples.length, (last + 1) * frame) };
  const pauses = pausesWithin(levels, silence, first, last).map((p) => ({ start: p.start * frame, end: p.end * frame }));

  const share = (w: number) => ((speech.end - speech.start) * w) / total;
  const ranges: SampleRange[] = [];
  let start = speech.start;
  let estimate = speech.start;
  for (let k = 0; k < weights.length - 1; k++) {
    estimate += share(weights[k]!);
    const reach = { before: share(weights[k]!) / 2, after: share(weights[k + 1]!) / 2 };
    const pause = longestNear(pauses, start, estimate - reach.before, estimate + reach.after);
    const end = pause ? pause.start : Math.max(start, Math.round(estimate));
    ranges.push([start, end]);
    start = pause ? pause.end : end;
  }
  ranges.push([start, Math.max(start, speech.end)]);
  return ranges;
}

/** Runs of silent frames strictly between the first and last speech frames, long enough to be pauses. */
function pausesWithin(levels: Uint16Array, silence: number, first: number, last: number): Pause[] {
  const pauses: Pause[] = [];
  let runStart = -1;
  for (let f = first; f <= last; f++) {
    const silent = levels[f]! < silence;
    if (silent && runStart < 0) runStart = f;
    if (!silent && runStart >= 0) {
      if (f - runStart >= MIN_PAUSE_FRAMES) pauses.push({ start: runStart, end: f });
      runStart = -1;
    }
  }
  return pauses;
}

/** The longest pause whose middle lies in [from, to] and that starts after `after`; ties to the first. */
function longestNear(pauses: Pause[], after: number, from: number, to: number): Pause | undefined {
  let best: Pause | undefined;
  for (const pause of pauses) {
    const middle = (pause.start + pause.end) / 2;
    if (pause.start <= after || middle < from || middle > to) continue;
    if (!best || pause.end - pause.start > best.end - best.start) best = pause;
  }
  return best;
}

/** Splits `length` samples among sentences in proportion to their weights (their characters). */
export function splitByWeight(length: number, weights: readonly number[]): SampleRange[] {
  const total = weights.reduce((a, b) => a + b, 0);
  let at = 0;
  let sum = 0;
  return weights.map((w) => {
    sum += total > 0 ? w : 1;
    const next = Math.round((length * sum) / (total > 0 ? total : weights.length));
    const range: SampleRange = [at, next];
    at = next;
    return range;
  });
}
