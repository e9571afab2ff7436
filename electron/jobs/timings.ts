import { splitByWeight } from '../audio/pauses';
import type { JobTimings } from '../contract';
import { pauseAfter } from './chunk-layout';
import { PARAGRAPH_PAUSE_MS } from './chunker';
import { sentenceWeight, shownText } from './sentence-spans';
import type { ChunkTimingLayout } from './rows';

const seconds = (samples: number, sampleRate: number) => Math.round((samples / sampleRate) * 1000) / 1000;

/**
 * A finished job's sentences in its audio and its text, from its chunks: each chunk starts where
 * the ones before it and their pauses end (as assembler.ts joins them), and its sentences are where
 * they were found in its audio (at its pauses, audio/pauses.ts), else split in proportion to their
 * characters. Each sentence's text is as written (the lexicon and SSML change what is said, never
 * what is shown). Null when the job was made before its chunks kept their sentences.
 */
export function jobTimings(chunks: ChunkTimingLayout[], sampleRate: number): JobTimings | null {
  if (chunks.some((chunk) => chunk.sentences === null)) return null;
  const pauses = chunks.map((chunk, i) => pauseAfter(chunk.pause_ms, i === chunks.length - 1, sampleRate));
  const sentences: JobTimings['sentences'] = [];
  let offset = 0;
  chunks.forEach((chunk, i) => {
    const spans = chunk.sentences!;
    const length = chunk.samples ?? 0;
    const ranges =
      chunk.sentence_samples ??
      splitByWeight(
        length,
        spans.map((span) => sentenceWeight(chunk.text, span)),
      );
    spans.forEach((span, k) => {
      const [textStart, textEnd] = span;
      const [start, end] = ranges[k] ?? [length, length];
      sentences.push({
        start_s: seconds(offset + start, sampleRate),
        end_s: seconds(offset + end, sampleRate),
        text_start: textStart,
        text_end: textEnd,
        text: shownText(chunk.text, span),
        ...(k === spans.length - 1 && chunk.pause_ms >= PARAGRAPH_PAUSE_MS && i < chunks.length - 1 ? { paragraph_end: true } : {}),
      });
    });
    offset += length + pauses[i]!;
  });
  return { duration_s: seconds(offset, sampleRate), sentences };
}
