/**
 * Splits long text into chunks for synthesis: whole sentences (Intl.Segmenter, language-aware)
 * grouped up to a size bound; a sentence longer than the bound is cut at clause, then word,
 * boundaries, never inside a word; only a word longer than the bound itself (a URL, a row of
 * emoji) is cut, between graphemes. No chunk is longer than the bound.
 */
import { codePoints } from '../contract/text';

export interface Chunk {
  text: string;
  /** Silence after this chunk when the job's audio is joined. */
  pauseMs: number;
}

export const SENTENCE_PAUSE_MS = 250;
export const PARAGRAPH_PAUSE_MS = 700;
export const DEFAULT_CHUNK_CHARS = 500;

/**
 * `firstChunkChars` bounds the first chunk alone: audio played while it is made (a streamed
 * answer) starts after its first chunk, so that one is kept to a sentence or two.
 */
export function chunkText(text: string, language = 'en', maxChars = DEFAULT_CHUNK_CHARS, firstChunkChars = maxChars): Chunk[] {
  const chunks: Chunk[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const pieces = sentences(paragraph, language).flatMap((s) => splitLong(s, maxChars, language));
    let current = '';
    for (const piece of pieces) {
      const bound = chunks.length === 0 ? Math.min(firstChunkChars, maxChars) : maxChars;
      if (current && codePoints(current) + 1 + codePoints(piece) > bound) {
        chunks.push({ text: current, pauseMs: SENTENCE_PAUSE_MS });
        current = '';
      }
      current = current ? `${current} ${piece}` : piece;
    }
    if (current) chunks.push({ text: current, pauseMs: PARAGRAPH_PAUSE_MS });
  }
  return chunks;
}

/**
 * Segmenting is done window by window: V8 gives every segment a copy of the whole input, so one
 * pass over a 400,000-character paragraph (a chapter without blank lines) exhausts the heap.
 * The last sentence of a window may be cut off, so it starts the next window.
 */
export const SEGMENT_WINDOW = 4000;

function sentences(paragraph: string, language: string): string[] {
  const segmenter = new Intl.Segmenter(locale(language), { granularity: 'sentence' });
  const out: string[] = [];
  let rest = paragraph;
  while (rest) {
    const window = rest.length <= SEGMENT_WINDOW ? rest : rest.slice(0, cutAt(rest, SEGMENT_WINDOW, language));
    const found = [...segmenter.segment(window)].map((s) => s.segment);
    const complete = window === rest || found.length === 1 ? found : found.slice(0, -1);
    out.push(...complete);
    rest = rest.slice(complete.reduce((n, s) => n + s.length, 0));
  }
  return out.map((s) => s.replace(/\s+/g, ' ').trim()).filter((s) => /\S/.test(s));
}

/** Where to cut a long text near `max`: after the last space, else between words, else between graphemes. */
function cutAt(text: string, max: number, language: string): number {
  const space = text.lastIndexOf(' ', max);
  if (space > max / 2) return space + 1;
  // a few characters past `max`: whether a boundary falls at `max` depends on what follows it
  const head = text.slice(0, max + 8);
  const lastStart = (granularity: 'word' | 'grapheme') => {
    let cut = 0;
    for (const { index } of new Intl.Segmenter(locale(language), { granularity }).segment(head)) if (index <= max) cut = index;
    return cut;
  };
  const word = lastStart('word');
  return word > max / 2 ? word : lastStart('grapheme') || max;
}

/** The voice's language for the segmenter; engines' tags are not all valid BCP 47. */
function locale(language: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(language)[0];
  } catch {
    return undefined;
  }
}

function splitLong(sentence: string, maxChars: number, language: string): string[] {
  if (codePoints(sentence) <= maxChars) return [sentence];
  const clauses = sentence.split(/(?<=[,;:\u2014\u2013)])\s+/);
  if (clauses.length > 1) return clauses.flatMap((c) => splitLong(c, maxChars, language)).reduce(packer(maxChars), []);
  return words(sentence, language)
    .flatMap((word) => bounded(word, maxChars, language))
    .reduce(packer(maxChars), []);
}

/** Words with the punctuation written against them; punctuation or symbols standing alone (after a space) are a word of their own. */
function words(text: string, language: string): string[] {
  const segmenter = new Intl.Segmenter(locale(language), { granularity: 'word' });
  const out: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    const last = out[out.length - 1];
    if (isWordLike || last === undefined || (/\s$/.test(last) && /\S/.test(segment))) out.push(segment);
    else out[out.length - 1] += segment;
  }
  return out.map((w) => w.trim()).filter(Boolean);
}

/** A word longer than the bound, cut between graphemes (a grapheme longer than the bound stays whole). */
function bounded(word: string, maxChars: number, language: string): string[] {
  if (codePoints(word) <= maxChars) return [word];
  const slices: string[] = [];
  let current = '';
  let length = 0;
  for (const { segment } of new Intl.Segmenter(locale(language), { granularity: 'grapheme' }).segment(word)) {
    const size = codePoints(segment);
    if (current && length + size > maxChars) {
      slices.push(current);
      current = '';
      length = 0;
    }
    current += segment;
    length += size;
  }
  return [...slices, current];
}

/** Joins pieces with spaces into runs of at most `maxChars`; a single longer piece stays whole. */
function packer(maxChars: number) {
  let lastLength = 0;
  return (packed: string[], piece: string): string[] => {
    const length = codePoints(piece);
    if (packed.length > 0 && lastLength + 1 + length <= maxChars) {
      packed[packed.length - 1] += ` ${piece}`;
      lastLength += 1 + length;
    } else {
      packed.push(piece);
      lastLength = length;
    }
    return packed;
  };
}

export const TITLE_CHARS = 80;

/** The start of a text as a one-line title: whole words, at most TITLE_CHARS characters. */
export function titleOf(text: string): string {
  const line = text
    .slice(0, 4 * TITLE_CHARS)
    .replace(/\s+/g, ' ')
    .trim();
  const chars = [...line];
  if (chars.length <= TITLE_CHARS) return line;
  const cut = chars.slice(0, TITLE_CHARS - 1).join('');
  const space = cut.lastIndexOf(' ');
  return `${space > TITLE_CHARS / 2 ? cut.slice(0, space) : cut}…`;
}
