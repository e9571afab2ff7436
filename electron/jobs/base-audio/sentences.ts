import type { Rewrite } from '../../lexicon/rewrite';
import { SENTENCE_PAUSE_MS } from '../chunker';
import type { ChunkTimingLayout, NewChunk } from '../rows';
import { shownText, withShown } from '../sentence-spans';
import { chunkOffsets, type BaseSlice } from './reuse';

/** A done job said again sentence by sentence: the new job's chunks, and the slice of the old audio each can take. */
export interface SentenceRerender {
  /** One per sentence of the old job, as spoken now, with its place in the job's text. */
  chunks: (NewChunk & { written: string })[];
  /** For each chunk, the old job's audio of its sentence when it is said as before; null: to be synthesized. */
  slices: (BaseSlice | null)[];
}

/**
 * A done job's sentences, each a chunk of its own (the render cache's unit), said with `spoken`
 * (the lexicon as it is now). A sentence said as the old job said it takes its audio from the old
 * job's (`sampleRate`; null: none can): the piece of its chunk's audio from where the sentence
 * starts to where the next one starts, as the chunk's sentence timings place them; the first and
 * last pieces take the chunk's edges. So the pieces of an unchanged chunk join back into its audio,
 * sample for sample, and a piece keeps the pause that followed its sentence (no pause is added after
 * it, but after the last of its chunk, which keeps its chunk's). A sentence synthesized anew is
 * followed by the pause of a sentence. Null when the old job's sentences are not known (a job made
 * before sentence timings).
 */
export function sentenceRerender(
  layout: readonly ChunkTimingLayout[],
  spoken: Rewrite,
  sampleRate: number | null,
): SentenceRerender | null {
  if (layout.some((chunk) => chunk.sentences === null)) return null;
  const audible =
    sampleRate !== null && layout.every((chunk) => chunk.samples !== null && chunk.sentence_samples?.length === chunk.sentences!.length);
  const offsets = audible ? chunkOffsets(layout, sampleRate) : [];
  const result: SentenceRerender = { chunks: [], slices: [] };
  layout.forEach((chunk, c) => {
    const spans = chunk.sentences!;
    spans.forEach((span, k) => {
      const written = shownText(chunk.text, span);
      const text = spoken(written).text;
      const last = k === spans.length - 1;
      const slice = audible && chunk.own === null && text === chunk.text.slice(span[2], span[3]) ? piece(chunk, k, offsets[c]!) : null;
      result.chunks.push({
        text,
        written,
        pauseMs: last ? chunk.pause_ms : slice ? 0 : SENTENCE_PAUSE_MS,
        sentences: [withShown([span[0], span[1], 0, text.length], text, written)],
      });
      result.slices.push(slice);
    });
  });
  return result;
}

/** Sentence `k` of a chunk as a slice of the job's audio (the chunk starting at `offset`), with what follows it up to the next. */
function piece(chunk: ChunkTimingLayout, k: number, offset: number): BaseSlice {
  const ranges = chunk.sentence_samples!;
  const start = k === 0 ? 0 : ranges[k]![0];
  const end = k === ranges.length - 1 ? chunk.samples! : ranges[k + 1]![0];
  const [from, to] = ranges[k]!;
  return { offset: offset + start, samples: end - start, sentenceSamples: [[from - start, Math.min(to, end) - start]] };
}
