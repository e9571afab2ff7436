import type { ChapterEdit } from '../contract';

/**
 * Sentence edits of a chapter (docs/projects.md): a narrator's fix of a sentence, kept with the
 * chapter beside the manuscript's own text, which is never changed. The chapter is rendered from
 * its text with its edits applied; an edit whose sentence the manuscript no longer holds is kept,
 * flagged (stale), and not applied. Offsets are UTF-16 indexes, as JavaScript's strings count.
 */

export interface SentenceEdit {
  /** Where `original` starts in the chapter's manuscript text; null when the manuscript changed under it (stale). */
  at: number | null;
  /** The manuscript's text that the edit replaces. */
  original: string;
  /** What is said instead. */
  text: string;
}

/** An edit that is applied, with where it stands in the text as rendered. */
interface Placed extends SentenceEdit {
  at: number;
  /** Start and end of its `text` in the text as rendered. */
  start: number;
  end: number;
}

/** The applied edits in order, each placed in the text as rendered. */
function placed(edits: readonly SentenceEdit[]): Placed[] {
  let shift = 0;
  return edits
    .filter((edit): edit is SentenceEdit & { at: number } => edit.at !== null)
    .sort((a, b) => a.at - b.at)
    .map((edit) => {
      const start = edit.at + shift;
      shift += edit.text.length - edit.original.length;
      return { ...edit, start, end: start + edit.text.length };
    });
}

const stale = (edits: readonly SentenceEdit[]) => edits.filter((edit) => edit.at === null);

/** The chapter's text as it is rendered: the manuscript's, each applied edit in place of its original. */
export function applyEdits(manuscript: string, edits: readonly SentenceEdit[]): string {
  let text = '';
  let from = 0;
  for (const edit of placed(edits)) {
    text += manuscript.slice(from, edit.at) + edit.text;
    from = edit.at + edit.original.length;
  }
  return text + manuscript.slice(from);
}

/**
 * The edits after the span [start, end) of the text as rendered was given new `text` (a sentence
 * edited in the chapter's audio). Edits the span touches are merged into one, whose original is
 * the manuscript's text under all of them; an edit back to the manuscript's wording goes.
 */
export function recordEdit(manuscript: string, edits: readonly SentenceEdit[], span: [number, number], text: string): SentenceEdit[] {
  const [start, end] = span;
  const all = placed(edits);
  const touched = all.filter((edit) => edit.start < end && start < edit.end);
  const from = Math.min(start, ...touched.map((edit) => edit.start));
  const to = Math.max(end, ...touched.map((edit) => edit.end));
  /** A place in the text as rendered, outside every edit, in the manuscript. */
  const inManuscript = (offset: number) =>
    all.filter((edit) => edit.end <= offset).reduce((at, edit) => at - (edit.text.length - edit.original.length), offset);
  const first = touched[0];
  const last = touched.at(-1);
  const at = first && first.start === from ? first.at : inManuscript(from);
  const until = last && last.end === to ? last.at + last.original.length : inManuscript(to);
  const rendered = applyEdits(manuscript, edits);
  const merged: SentenceEdit = {
    at,
    original: manuscript.slice(at, until),
    text: rendered.slice(from, start) + text + rendered.slice(end, to),
  };
  const kept = all.filter((edit) => !touched.includes(edit)).map(({ at, original, text }) => ({ at, original, text }));
  const next = merged.text === merged.original ? kept : [...kept, merged];
  return [...next.sort((a, b) => a.at! - b.at!), ...stale(edits)];
}

/**
 * The edits of a chapter whose manuscript text changed from `before` to `after`: each applied
 * edit whose original is still there (the nearest occurrence to where it was) stays applied
 * there; one whose original is gone becomes stale. Stale edits stay stale.
 */
export function carryEdits(before: string, after: string, edits: readonly SentenceEdit[]): SentenceEdit[] {
  if (before === after) return [...edits];
  const carried: SentenceEdit[] = [];
  const gone: SentenceEdit[] = [];
  for (const edit of placed(edits)) {
    const at = placeIn(before, after, edit, carried);
    const { original, text } = edit;
    if (at === null) gone.push({ at: null, original, text });
    else carried.push({ at, original, text });
  }
  return [...carried.sort((a, b) => a.at! - b.at!), ...gone, ...stale(edits)];
}

/**
 * Where an edit's original is in the changed text, overlapping none of `taken`: the same
 * occurrence (the k-th of k) while the text holds as many; else the one nearest where it was,
 * in proportion to the text's length. Null if nowhere.
 */
function placeIn(before: string, after: string, edit: Placed, taken: readonly SentenceEdit[]): number | null {
  if (!edit.original) return null;
  const length = edit.original.length;
  const isFree = (at: number) => !taken.some((other) => other.at! < at + length && at < other.at! + other.original.length);
  const was = occurrences(before, edit.original);
  const now = occurrences(after, edit.original);
  const same = now.length === was.length ? now[was.indexOf(edit.at)] : undefined;
  if (same !== undefined && isFree(same)) return same;
  const near = (edit.at * after.length) / Math.max(1, before.length);
  return now
    .filter(isFree)
    .reduce<number | null>((best, at) => (best === null || Math.abs(at - near) < Math.abs(best - near) ? at : best), null);
}

function occurrences(text: string, part: string): number[] {
  const found: number[] = [];
  for (let at = text.indexOf(part); at !== -1; at = text.indexOf(part, at + 1)) found.push(at);
  return found;
}

/** Each edit as the API shows it: applied ones with where their text is in the text as rendered (code points). */
export function editsInRendered(manuscript: string, edits: readonly SentenceEdit[]): ChapterEdit[] {
  const rendered = applyEdits(manuscript, edits);
  const codePointsBefore = (offset: number) => [...rendered.slice(0, offset)].length;
  return [
    ...placed(edits).map(({ original, text, start, end }) => ({
      original,
      text,
      stale: false,
      text_start: codePointsBefore(start),
      text_end: codePointsBefore(end),
    })),
    ...stale(edits).map(({ original, text }) => ({ original, text, stale: true })),
  ];
}

/** A code-point offset in `text` as a UTF-16 index. */
export function utf16Offset(text: string, codePoints: number): number {
  let index = 0;
  for (let i = 0; i < codePoints && index < text.length; i++) index += text.codePointAt(index)! > 0xffff ? 2 : 1;
  return index;
}
