import type { CompareTake, SentenceTiming } from '../api/contract';
import type { TakeFile } from '../store/compare-slice';
import { blindTake, soundSpan } from './blind-audio';
import { gainToTarget, matchTarget, type TakeLevel } from './loudness-match';
import { wavData, withGain } from './wav-gain';

/** A take as the listener hears it. */
export interface PlayedTake {
  blob: Blob;
  /** Seconds cut from its start (blind listening): its sentences start this much earlier. */
  offsetS: number;
  /** Gain for loudness-matched listening, dB. */
  gainDb: number;
}

/**
 * The takes of one text as played: at one loudness when matched (the common level over the takes
 * loaded), and, when blind and not revealed, cut of edge silence and padded to the longest so that
 * no length gives a voice away. Takes not loaded yet are left out.
 */
export function playedTakes(
  takes: readonly CompareTake[],
  audio: Readonly<Record<string, TakeFile>>,
  options: { match: boolean; hidden: boolean },
): { target: number | null; played: Map<string, PlayedTake> } {
  const loaded = takes.flatMap((take) => {
    const file = audio[take.take_id];
    return file ? [{ take, file }] : [];
  });
  const level = ({ take, file }: (typeof loaded)[number]): TakeLevel | null =>
    file.peak === undefined ? null : { lufs: take.loudness_lufs ?? null, peak: file.peak };
  const target = options.match ? matchTarget(loaded.flatMap((t) => level(t) ?? [])) : null;
  const spans = new Map(loaded.map(({ take, file }) => [take.take_id, options.hidden ? soundSpan(file.file) : null]));
  const longest = Math.max(0, ...[...spans.values()].map((span) => (span ? (span.end - span.start) / span.sampleRate : 0)));
  const played = new Map<string, PlayedTake>();
  for (const entry of loaded) {
    const { take, file } = entry;
    const known = level(entry);
    const gainDb = known ? gainToTarget(known, target) : 0;
    const span = spans.get(take.take_id);
    if (span) {
      played.set(take.take_id, { blob: wav(blindTake(file.file, span, longest, gainDb)), offsetS: span.start / span.sampleRate, gainDb });
      continue;
    }
    const data = gainDb !== 0 ? wavData(file.file) : null;
    played.set(take.take_id, { blob: data ? wav(withGain(file.file, data, gainDb)) : file.blob, offsetS: 0, gainDb });
  }
  return { target, played };
}

const wav = (bytes: ArrayBuffer) => new Blob([bytes], { type: 'audio/wav' });

/** Where sentence `n` starts in a take as played (never before 0). */
export function sentenceStart(take: CompareTake | undefined, played: PlayedTake | undefined, n: number): number {
  const sentence: SentenceTiming | undefined = take?.timings?.sentences[n];
  return Math.max(0, (sentence?.start_s ?? 0) - (played?.offsetS ?? 0));
}

/** Where it ends as played; Infinity when unknown. */
export function sentenceEnd(take: CompareTake | undefined, played: PlayedTake | undefined, n: number): number {
  const sentence = take?.timings?.sentences[n];
  return sentence ? sentence.end_s - (played?.offsetS ?? 0) : Infinity;
}

/** The sentence playing at `time` on a take: the last one started (the first before any). */
export function sentenceAt(take: CompareTake | undefined, played: PlayedTake | undefined, time: number): number {
  const sentences = take?.timings?.sentences ?? [];
  let found = 0;
  sentences.forEach((_, n) => {
    if (sentenceStart(take, played, n) <= time + 0.001) found = n;
  });
  return found;
}
