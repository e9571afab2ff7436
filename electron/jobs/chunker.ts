/**
 * Splits long text into chunks for synthesis: whole sentences (contract/sentences.ts: Unicode's
 * boundaries, language-aware, minus those after abbreviations and initials) grouped up to a size
 * bound; a sentence longer than the bound is cut at clause, then word, boundaries, never inside a
 * word; only a word longer than the bound itself (a URL, a row of emoji) is cut, between graphemes.
 * No chunk is longer than the bound. Each chunk says where its sentences are, so that timings,
 * read-along and captions use the very sentences the chunks were made of.
 */
import { codePoints } from '../contract/text';
import { locale, sentencesOf, type SentenceBounds } from '../contract/sentences';

export interface Chunk {
  text: string;
  /** Silence after this chunk when the job's audio is joined. */
  pauseMs: number;
}

/** A chunk as the chunker cuts it from written text. */
export interface WrittenChunk extends Chunk {
  /** Each sentence of `text` (a part of one, for a sentence longer than a chunk), in UTF-16 units. */
  bounds: SentenceBounds[];
}

export const SENTENCE_PAUSE_MS = 250;
export const PARAGRAPH_PAUSE_MS = 700;
export const DEFAULT_CHUNK_CHARS = 500;

/**
 * `firstChunkChars` bounds the first chunk alone: audio played while it is made (a streamed
 * answer) starts after its first chunk, so that one is kept to a sentence or two.
 */
export function chunkText(text: string, language = 'en', maxChars = DEFAULT_CHUNK_CHARS, firstChunkChars = maxChars): WrittenChunk[] {
  return cut(text, language, maxChars, firstChunkChars, false);
}

/**
 * Each sentence a chunk of its own (a sentence longer than `maxChars` still several): the unit
 * the render cache keeps, so that a change re-renders the sentences it touches, not their
 * neighbours in a chunk (jobs/render-cache/).
 */
export function sentenceChunks(text: string, language = 'en', maxChars = DEFAULT_CHUNK_CHARS): WrittenChunk[] {
  return cut(text, language, maxChars, maxChars, true);
}

function cut(text: string, language: string, maxChars: number, firstChunkChars: number, bySentence: boolean): WrittenChunk[] {
  const chunks: WrittenChunk[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const pieces = sentencesOf(paragraph, language).flatMap((sentence, n) =>
      splitLong(sentence, maxChars, language).map((piece) => ({ piece, n })),
    );
    let current: WrittenChunk = { text: '', pauseMs: SENTENCE_PAUSE_MS, bounds: [] };
    let last = -1;
    for (const { piece, n } of pieces) {
      const bound = chunks.length === 0 ? Math.min(firstChunkChars, maxChars) : maxChars;
      const full = codePoints(current.text) + 1 + codePoints(piece) > bound;
      if (current.text && (full || (bySentence && n !== last))) {
        chunks.push(current);
        current = { text: '', pauseMs: SENTENCE_PAUSE_MS, bounds: [] };
      }
      const start = current.text ? current.text.length + 1 : 0;
      current.text = current.text ? `${current.text} ${piece}` : piece;
      // the pieces of one long sentence side by side in a chunk are one sentence
      const previous = current.bounds[current.bounds.length - 1];
      if (previous && n === last) previous[1] = current.text.length;
      else current.bounds.push([start, current.text.length]);
      last = n;
    }
    if (current.text) chunks.push({ ...current, pauseMs: PARAGRAPH_PAUSE_MS });
  }
  return chunks;
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
