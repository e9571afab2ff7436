/**
 * Splits long text into chunks for synthesis: whole sentences (Intl.Segmenter, language-aware)
 * grouped up to a size bound; a sentence longer than the bound is cut at clause, then word,
 * boundaries, never inside a word.
 */
export interface Chunk {
  text: string;
  /** Silence after this chunk when the job's audio is joined. */
  pauseMs: number;
}

export const SENTENCE_PAUSE_MS = 250;
export const PARAGRAPH_PAUSE_MS = 700;
export const DEFAULT_CHUNK_CHARS = 500;

export function chunkText(text: string, language = 'en', maxChars = DEFAULT_CHUNK_CHARS): Chunk[] {
  const chunks: Chunk[] = [];
  for (const paragraph of text.split(/\n\s*\n/)) {
    const pieces = sentences(paragraph, language).flatMap((s) => splitLong(s, maxChars, language));
    let current = '';
    for (const piece of pieces) {
      if (current && codePoints(current) + 1 + codePoints(piece) > maxChars) {
        chunks.push({ text: current, pauseMs: SENTENCE_PAUSE_MS });
        current = '';
      }
      current = current ? `${current} ${piece}` : piece;
    }
    if (current) chunks.push({ text: current, pauseMs: PARAGRAPH_PAUSE_MS });
  }
  return chunks;
}

function sentences(paragraph: string, language: string): string[] {
  const segmenter = new Intl.Segmenter(language, { granularity: 'sentence' });
  return [...segmenter.segment(paragraph)].map((s) => s.segment.replace(/\s+/g, ' ').trim()).filter((s) => /\S/.test(s));
}

function splitLong(sentence: string, maxChars: number, language: string): string[] {
  if (codePoints(sentence) <= maxChars) return [sentence];
  const clauses = sentence.split(/(?<=[,;:\u2014\u2013)])\s+/);
  if (clauses.length > 1) return clauses.flatMap((c) => splitLong(c, maxChars, language)).reduce(packer(maxChars), []);
  return words(sentence, language).reduce(packer(maxChars), []);
}

/** Words with their trailing spaces and punctuation; a single word longer than the bound stays whole. */
function words(text: string, language: string): string[] {
  const segmenter = new Intl.Segmenter(language, { granularity: 'word' });
  const out: string[] = [];
  for (const { segment, isWordLike } of segmenter.segment(text)) {
    if (isWordLike || out.length === 0) out.push(segment);
    else out[out.length - 1] += segment;
  }
  return out.map((w) => w.trim()).filter(Boolean);
}

function packer(maxChars: number) {
  return (packed: string[], piece: string): string[] => {
    const last = packed[packed.length - 1];
    if (last !== undefined && codePoints(last) + 1 + codePoints(piece) <= maxChars) packed[packed.length - 1] = `${last} ${piece}`;
    else packed.push(piece);
    return packed;
  };
}

export function codePoints(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}
