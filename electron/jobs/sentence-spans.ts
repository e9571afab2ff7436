/**
 * Where each sentence of each chunk lies in the job's text. Chunks hold the text's characters in
 * order with each run of whitespace made one space (chunker.ts), and sometimes a space added where
 * a long sentence was cut: so every other character of a chunk is the next character of the text
 * that is not whitespace, and one walk over both finds them all.
 */
import { splitAtPauses, type SampleRange } from '../audio/pauses';
import type { Pcm } from '../audio/pcm';
import { codePoints } from '../contract/text';
import { locale, type Chunk } from './chunker';

/**
 * One sentence of a chunk, as four integers (stored as JSON with the chunk): its start and end
 * in the job's text, in code points, then in the chunk's text, in UTF-16 units; ends exclusive.
 */
export type SentenceSpan = [textStart: number, textEnd: number, chunkStart: number, chunkEnd: number];

const WHITESPACE = /\s/;

/**
 * Each chunk's sentences, found by Intl.Segmenter in the chunk's text and placed in `text`; null
 * for every chunk if the walk cannot follow the text (a fault of the chunker: timings are an extra,
 * a job is not refused for them).
 */
export function sentenceSpansOrNull(text: string, chunks: readonly { text: string }[], language: string): (SentenceSpan[] | null)[] {
  try {
    return sentenceSpans(text, chunks, language);
  } catch (error) {
    console.error('Orator could not place the sentences of a job in its text; it will have no timings:', error);
    return chunks.map(() => null);
  }
}

/** Each chunk's sentences, found by Intl.Segmenter in the chunk's text and placed in `text`. */
export function sentenceSpans(text: string, chunks: readonly { text: string }[], language: string): SentenceSpan[][] {
  const segmenter = new Intl.Segmenter(locale(language), { granularity: 'sentence' });
  const position = new TextWalker(text);
  return chunks.map(({ text: chunkText }) => {
    // where each character of the chunk is in the text, in code points; spaces have none
    const at = new Array<number>(chunkText.length).fill(-1);
    for (let i = 0; i < chunkText.length; i++) if (chunkText[i] !== ' ') at[i] = position.next(chunkText[i]!);
    return [...segmenter.segment(chunkText)].flatMap(({ segment, index }) => {
      const start = index + (segment.length - segment.trimStart().length);
      const end = index + segment.trimEnd().length;
      if (end <= start) return [];
      const last = at[end - 1]!;
      // a surrogate pair is one code point: its low half has no position of its own
      const textEnd = last >= 0 ? last + 1 : at[end - 2]! + 1;
      return [[at[start]!, textEnd, start, end] satisfies SentenceSpan];
    });
  });
}

/**
 * The chunks as the engine reads them (`spoken`: the pronunciation lexicon), applied sentence by
 * sentence so that each span's place in its chunk follows the spoken text; a chunk whose
 * sentences are not known is made spoken whole.
 */
export function spokenChunks(
  chunks: readonly Chunk[],
  spans: readonly (SentenceSpan[] | null)[],
  spoken: (text: string) => string,
): (Chunk & { sentences: SentenceSpan[] | null })[] {
  return chunks.map((chunk, i) => {
    const sentences = spans[i];
    if (!sentences) return { ...chunk, text: spoken(chunk.text), sentences: null };
    let text = '';
    let written = 0;
    const placed = sentences.map(([textStart, textEnd, chunkStart, chunkEnd]): SentenceSpan => {
      text += chunk.text.slice(written, chunkStart);
      const start = text.length;
      text += spoken(chunk.text.slice(chunkStart, chunkEnd));
      written = chunkEnd;
      return [textStart, textEnd, start, text.length];
    });
    return { ...chunk, text: text + chunk.text.slice(written), sentences: placed };
  });
}

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
