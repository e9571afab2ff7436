import type { JobTimings, SentenceTiming } from './jobs';

/**
 * One sentence of an inline answer, as the `X-Orator-Timings` header lists them (JSON, numbers
 * only, so the header stays ASCII and short): its start and end in seconds, its start and end
 * (exclusive) in the text as sent, in code points, and a 1 when a paragraph ends with it.
 */
export type InlineSentence = [startS: number, endS: number, textStart: number, textEnd: number] | [number, number, number, number, 1];

/**
 * Above this many bytes the header is left out (clients such as Node's fetch refuse answers whose
 * headers pass 16 KiB): about 300 sentences; a text that long reads along better as a job.
 */
export const INLINE_TIMINGS_MAX_BYTES = 8192;

/**
 * The header's sentences as a job's timings, with each sentence's text taken from the text that
 * was sent; null when the header is absent or does not fit that text.
 */
export function inlineTimingsOf(header: string | null, text: string, durationS: number): JobTimings | null {
  if (!header) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(header);
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const chars = [...text];
  const sentences: SentenceTiming[] = [];
  for (const entry of parsed as unknown[]) {
    if (!isSentence(entry, chars.length)) return null;
    const [start_s, end_s, text_start, text_end, paragraph] = entry;
    const spoken = chars.slice(text_start, text_end).join('').replace(/\s+/g, ' ').trim();
    sentences.push({ start_s, end_s, text_start, text_end, text: spoken, ...(paragraph === 1 ? { paragraph_end: true } : {}) });
  }
  return { duration_s: durationS, sentences };
}

function isSentence(entry: unknown, length: number): entry is InlineSentence {
  if (!Array.isArray(entry) || entry.length < 4 || entry.length > 5 || !entry.every((n) => typeof n === 'number' && Number.isFinite(n)))
    return false;
  const [start, end, textStart, textEnd, paragraph] = entry as number[];
  return (
    start! <= end! &&
    Number.isInteger(textStart) &&
    Number.isInteger(textEnd) &&
    0 <= textStart! &&
    textStart! < textEnd! &&
    textEnd! <= length &&
    (paragraph === undefined || paragraph === 1)
  );
}
