/**
 * Where each sentence of each chunk lies in the job's text, and what it shows. Chunks hold the
 * text's characters in order with each run of whitespace made one space (chunker.ts), and
 * sometimes a space added where a long sentence was cut: so every other character of a chunk is
 * the next character of the text that is not whitespace, and one walk over both finds them all.
 *
 * The engine reads a chunk as spoken (the pronunciation lexicon, SSML's say-as and phonemes);
 * people see it as written. A span keeps both: its place in the written text, its place in the
 * spoken chunk (for the audio), and the written sentence where the two differ.
 */
import { splitAtPauses, type SampleRange } from '../audio/pauses';
import type { Pcm } from '../audio/pcm';
import { codePoints } from '../contract/text';
import { spokenOffset, type Rewrite } from '../lexicon/rewrite';
import type { Chunk, WrittenChunk } from './chunker';

/**
 * One sentence of a chunk (stored as JSON with the chunk): its start and end in the job's text, in
 * code points, then in the chunk's text as spoken, in UTF-16 units; ends exclusive. `shown` is the
 * sentence as written where it differs from the spoken slice (an alias, phonemes, say-as words);
 * without it the two are the same.
 */
export type SentenceSpan = [textStart: number, textEnd: number, chunkStart: number, chunkEnd: number, shown?: string];

const WHITESPACE = /\s/;

/**
 * Each chunk's sentences placed in `text`; null for every chunk if the walk cannot follow the
 * text (a fault of the chunker: timings are an extra, a job is not refused for them).
 */
export function sentenceSpansOrNull(text: string, chunks: readonly WrittenChunk[]): (SentenceSpan[] | null)[] {
  try {
    return sentenceSpans(text, chunks);
  } catch (error) {
    console.error('Orator could not place the sentences of a job in its text; it will have no timings:', error);
    return chunks.map(() => null);
  }
}

/** Each chunk's sentences (as the chunker cut them) placed in `text`; chunk offsets are the written chunk's. */
export function sentenceSpans(text: string, chunks: readonly WrittenChunk[]): SentenceSpan[][] {
  const position = new TextWalker(text);
  return chunks.map(({ text: chunkText, bounds }) => {
    // where each character of the chunk is in the text, in code points; spaces have none
    const at = new Array<number>(chunkText.length).fill(-1);
    for (let i = 0; i < chunkText.length; i++) if (chunkText[i] !== ' ') at[i] = position.next(chunkText[i]!);
    return bounds.map(([start, end]): SentenceSpan => {
      const last = at[end - 1]!;
      // a surrogate pair is one code point: its low half has no position of its own
      const textEnd = last >= 0 ? last + 1 : at[end - 2]! + 1;
      return [at[start]!, textEnd, start, end];
    });
  });
}

/**
 * The chunks as the engine reads them (`rewrite`: the pronunciation lexicon), each rewritten
 * whole, its sentences' places moved to the spoken text; each span keeps its sentence as written
 * (`shownOf`, by default the written chunk's slice) where that differs from what is spoken. A
 * chunk whose sentences are not known is made spoken whole.
 */
export function spokenChunks(
  chunks: readonly Chunk[],
  spans: readonly (SentenceSpan[] | null)[],
  rewrite: Rewrite,
  shownOf: (span: SentenceSpan, chunk: Chunk) => string = (span, chunk) => chunk.text.slice(span[2], span[3]),
): (Chunk & { sentences: SentenceSpan[] | null })[] {
  return chunks.map((chunk, i) => {
    const { text, replacements } = rewrite(chunk.text);
    const sentences = spans[i];
    if (!sentences) return { text, pauseMs: chunk.pauseMs, sentences: null };
    let from = 0;
    const placed = sentences.map((span): SentenceSpan => {
      const start = spokenOffset(replacements, span[2], from);
      const end = spokenOffset(replacements, span[3], start.next);
      from = end.next;
      return withShown([span[0], span[1], start.offset, end.offset], text, shownOf(span, chunk));
    });
    return { text, pauseMs: chunk.pauseMs, sentences: placed };
  });
}

/** A span with its written form kept only where it differs from the spoken chunk's slice. */
export function withShown(span: SentenceSpan, spokenText: string, shown: string): SentenceSpan {
  const [textStart, textEnd, chunkStart, chunkEnd] = span;
  return spokenText.slice(chunkStart, chunkEnd) === shown
    ? [textStart, textEnd, chunkStart, chunkEnd]
    : [textStart, textEnd, chunkStart, chunkEnd, shown];
}

/** A sentence as people see it (read-along, captions, chapter titles): as written, never as spoken. */
export const shownText = (chunkText: string, span: SentenceSpan): string => span[4] ?? chunkText.slice(span[2], span[3]);

/** Walks the job's text forwards, past whitespace, counting code points. */
class TextWalker {
  private unit = 0;
  private codePoint = 0;

  constructor(private readonly text: string) {}

  /**
   * The code point index of the next character that is not whitespace, which must be
   * `expected`; -1 for the low half of a surrogate pair, which shares the high half's.
   */
  next(expected: string): number {
    const { text } = this;
    while (this.unit < text.length && WHITESPACE.test(text[this.unit]!)) this.step();
    if (text[this.unit] !== expected) {
      throw new Error(`Chunk text does not follow the job's text at code point ${this.codePoint}.`);
    }
    const here = this.atLowHalf() ? -1 : this.codePoint;
    this.step();
    return here;
  }

  private atLowHalf(): boolean {
    return this.unit > 0 && isLow(this.text.charCodeAt(this.unit)) && isHigh(this.text.charCodeAt(this.unit - 1));
  }

  private step(): void {
    if (!this.atLowHalf()) this.codePoint++;
    this.unit++;
  }
}

const isHigh = (unit: number) => unit >= 0xd800 && unit <= 0xdbff;
const isLow = (unit: number) => unit >= 0xdc00 && unit <= 0xdfff;

/**
 * Where a synthesized chunk's sentences are in its audio: split at the pauses near where their
 * characters place them (audio/pauses.ts); null for a chunk whose sentences are not known.
 */
export function sentenceSamples(chunkText: string, spans: SentenceSpan[] | null, pcm: Pcm): SampleRange[] | null {
  if (spans === null) return null;
  return splitAtPauses(
    pcm.samples,
    pcm.sampleRate,
    spans.map((span) => sentenceWeight(chunkText, span)),
  );
}

/** How much of a chunk's speech a sentence takes, for splitting its audio: its characters as spoken. */
export function sentenceWeight(chunkText: string, span: SentenceSpan): number {
  return codePoints(chunkText.slice(span[2], span[3]));
}
