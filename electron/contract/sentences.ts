/**
 * The sentences of a text, as everything in Orator cuts them: job chunks, sentence timings,
 * read-along, captions and the studio's "first sentence" (docs/lexicon.md, "Sentences").
 *
 * Intl.Segmenter gives Unicode's sentence boundaries (UAX #29: ".", "?", "!", "。", quotes and
 * brackets around them, "3.5", a full stop before a lower-case word), which know nothing of
 * abbreviations: Node 20's ICU cuts "Dr. | Watson", "J. | R. | R. | Tolkien", "z. | B." and "Il
 * Sig. | Rossi", and ignores the locale's "ss=standard" exceptions (V8 does not pass them on). So
 * a boundary is then dropped where it follows
 * - a single letter ("J.", "z."), an initial;
 * - a dotted short form ("U.S.", "e.g.", "Dott.ssa");
 * - a title of the language ("Dr.", "Mrs.", "Hr.", "Sra."), or a word that stands before a number
 *   when a number follows ("No. 5", "S. 12");
 * - in German, a number read as an ordinal ("am 3. Mai", "der 2. Weltkrieg");
 * - "?" or "!" that the sentence goes on from in lower case ("“Who?” he asked.", "« Stop ! » dit-il.");
 * and never where a line break is (a line of its own, or SSML's `<s>`, is a sentence end). A
 * closing quote the segmenter put at the start of the next sentence (French guillemets, after a
 * space) goes back to the sentence it closes.
 *
 * Linear: the text is segmented in windows (V8 gives every segment a copy of its input, so one
 * pass over a 400,000-character paragraph exhausts the heap), and each boundary looks at most a
 * few dozen characters either side.
 */
import { abbreviationsFor, type Abbreviations } from './abbreviations';

/** [start, end) of a sentence in its text, in UTF-16 units, without the whitespace around it. */
export type SentenceBounds = [start: number, end: number];

export const SEGMENT_WINDOW = 4000;
/** How far a boundary looks back for the word before its full stop, or ahead for the next word. */
const LOOK = 40;

/** Every sentence of `text` in order; none for blank text. */
export function sentenceBounds(text: string, language: string): SentenceBounds[] {
  const rules = abbreviationsFor(language);
  const out: SentenceBounds[] = [];
  let joinable = false;
  for (const { start, end, forced } of segments(text, language)) {
    let trimmed = trim(text, start, end);
    const last = out[out.length - 1];
    if (trimmed && last && joinable && !breaksLine(text, last[1], trimmed[0])) {
      // closing quotes that a space cut from the sentence they close ("« Je pars. »") go back to it
      let closed = trimmed[0];
      while (closed < trimmed[1] && CLOSES.test(text[closed]!)) closed++;
      if (closed > trimmed[0]) {
        last[1] = closed;
        trimmed = trim(text, closed, trimmed[1]);
      }
      if (trimmed && continues(text, last[1], trimmed[0], rules)) {
        last[1] = trimmed[1];
        trimmed = null;
      }
    }
    if (trimmed) out.push(trimmed);
    joinable = !forced;
  }
  return out;
}

/** The sentences of `text` as strings, whitespace runs made one space. */
export function sentencesOf(text: string, language: string): string[] {
  return sentenceBounds(text, language).map(([start, end]) => text.slice(start, end).replace(/\s+/g, ' '));
}

/** The voice's language for the segmenter; engines' tags are not all valid BCP 47. */
export function locale(language: string): string | undefined {
  try {
    return Intl.getCanonicalLocales(language)[0];
  } catch {
    return undefined;
  }
}

interface Segment {
  start: number;
  end: number;
  /** Cut at a window's end inside one sentence longer than a window: not a boundary to drop. */
  forced: boolean;
}

/** Intl.Segmenter's sentences, window by window; the last sentence of a window starts the next. */
function* segments(text: string, language: string): Generator<Segment> {
  const segmenter = new Intl.Segmenter(locale(language), { granularity: 'sentence' });
  let offset = 0;
  while (offset < text.length) {
    const windowEnd = text.length - offset <= SEGMENT_WINDOW ? text.length : offset + cutAt(text, offset, language);
    const found = [...segmenter.segment(text.slice(offset, windowEnd))];
    const whole = windowEnd === text.length || found.length === 1;
    const complete = whole ? found : found.slice(0, -1);
    let end = offset;
    for (const [k, { index, segment }] of complete.entries()) {
      end = offset + index + segment.length;
      yield { start: offset + index, end, forced: whole && windowEnd !== text.length && k === complete.length - 1 };
    }
    offset = end;
  }
}

/** Where to end a window near SEGMENT_WINDOW: after the last space, else between words, else between graphemes. */
function cutAt(text: string, offset: number, language: string): number {
  const max = SEGMENT_WINDOW;
  // a few characters past `max`: whether a boundary falls at `max` depends on what follows it
  const head = text.slice(offset, offset + max + 8);
  const space = head.lastIndexOf(' ', max);
  if (space > max / 2) return space + 1;
  const lastStart = (granularity: 'word' | 'grapheme') => {
    let cut = 0;
    for (const { index } of new Intl.Segmenter(locale(language), { granularity }).segment(head)) if (index <= max) cut = index;
    return cut;
  };
  const word = lastStart('word');
  return word > max / 2 ? word : lastStart('grapheme') || max;
}

function trim(text: string, start: number, end: number): SentenceBounds | null {
  while (start < end && isWhitespace(text.charCodeAt(start))) start++;
  while (end > start && isWhitespace(text.charCodeAt(end - 1))) end--;
  return end > start ? [start, end] : null;
}

/** Whether the sentence ending at `end` goes on in the one starting at `next` (the boundary between them is dropped). */
function continues(text: string, end: number, next: number, rules: Abbreviations): boolean {
  if (text[end - 1] === '.') return afterFullStop(text, end - 1, next, rules);
  const terminal = endingTerminal(text, end);
  return terminal !== null && terminal !== '.' && startsLowerCase(text, next);
}

/** A line break between two sentences: a boundary never dropped (a line of its own, SSML's `<s>`). */
function breaksLine(text: string, end: number, next: number): boolean {
  for (let i = end; i < next; i++) if (isLineBreak(text.charCodeAt(i))) return true;
  return false;
}

/** The full stop at `stop` ends no sentence: it closes an abbreviation, an initial or an ordinal. */
function afterFullStop(text: string, stop: number, next: number, rules: Abbreviations): boolean {
  if (text[stop - 1] === '.') return false; // an ellipsis "..."
  let from = stop;
  while (from > 0 && stop - from < LOOK && isWordPart(text, from - 1)) from--;
  if (from > 0 && stop - from >= LOOK) return false;
  const word = text.slice(from, stop);
  if (word === '') return false;
  if (/^\d{1,3}$/.test(word)) return isOrdinal(text, from, next, rules);
  if (!/^[\p{L}\p{M}.]+$/u.test(word)) return false;
  if (word.includes('.')) return word.split('.').every((part) => /^\p{L}\p{M}*(\p{L}\p{M}*){0,3}$/u.test(part));
  if (/^\p{L}\p{M}*$/u.test(word)) return true; // an initial
  if (isListed(word, rules.titles)) return true;
  return isListed(word, rules.numbered) && /\d/.test(text[next] ?? '');
}

/** A listed word as written, or capitalised at a sentence's start or in a heading ("Ca.", "DR."). */
function isListed(word: string, list: ReadonlySet<string>): boolean {
  const lower = word.toLowerCase();
  return list.has(word) || list.has(lower) || list.has(lower.charAt(0).toUpperCase() + lower.slice(1));
}

/** "am 3. Mai", "der 2. Weltkrieg": a number read as an ordinal, in languages that write them so. */
function isOrdinal(text: string, numberStart: number, next: number, rules: Abbreviations): boolean {
  if (rules.ordinalAfter.size === 0) return false;
  const following = /^\p{L}+/u.exec(text.slice(next, next + LOOK))?.[0];
  if (following !== undefined && rules.ordinalBefore.has(following)) return true;
  const before = text.slice(Math.max(0, numberStart - LOOK), numberStart);
  const trimmed = before.trimEnd();
  if (trimmed.length === before.length) return false; // "am3." is not "am 3."
  const previous = trimmed.slice(lettersStart(trimmed));
  return previous !== '' && rules.ordinalAfter.has(previous.toLowerCase());
}

/** Where the run of letters that ends `text` starts, scanned backwards so that it stays linear. */
function lettersStart(text: string): number {
  let at = text.length;
  while (at > 0 && /\p{L}/u.test(text[at - 1]!)) at--;
  return at;
}

/** The sentence's last "." "?" "!" (or the like) before any closing quotes and brackets; null when it ends otherwise. */
function endingTerminal(text: string, end: number): string | null {
  let at = end - 1;
  while (at >= 0 && end - at < LOOK && TRAILING.test(text[at]!)) at--;
  const char = text[at];
  return char !== undefined && TERMINAL.test(char) ? char : null;
}

/** The next sentence starts with a lower-case word, after any dash or opening quote ("— dijo él"). */
function startsLowerCase(text: string, next: number): boolean {
  let at = next;
  while (at < text.length && at - next < LOOK && LEADING.test(text[at]!)) at++;
  return /\p{Ll}/u.test(String.fromCodePoint(text.codePointAt(at) ?? 0x20));
}

/** What closes a quotation or bracket for sure; straight quotes open as often as they close. */
const CLOSES = /[\p{Pe}\p{Pf}»›]/u;
/** What may stand after a sentence's last "?" or "!": closing quotes and brackets, and the (narrow) spaces French puts before them. */
const TRAILING = /[\s\p{Pe}\p{Pf}\p{Pi}"'»›]/u;
const TERMINAL = /[.?!\u061f\u0964\u3002\uff01\uff1f\u203c\u2047-\u2049]/u;
const LEADING = /[\s\p{Pd}\p{Pi}\p{Ps}"'«]/u;

const isWordPart = (text: string, at: number) => /[\p{L}\p{M}\p{N}.]/u.test(text[at]!);
const isLineBreak = (code: number) =>
  code === 0x0a || code === 0x0d || code === 0x0b || code === 0x0c || code === 0x85 || code === 0x2028 || code === 0x2029;

/** What `\s` matches, by UTF-16 unit (every such character is one unit). */
export function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}
