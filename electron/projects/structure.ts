/**
 * A book's structure from its blocks (blocks.ts), read as a narrator would (docs/projects.md,
 * "The book's structure"):
 * - the chapter level is the heading level of its "Chapter N" headings, else the level below
 *   "Part N" headings or below a lone book title, else the top level;
 * - a heading above it is a part when "Part N" or directly followed by a chapter; the part's
 *   title is spoken before its first chapter, and every chapter of it carries its name;
 * - headings below it (scenes, places and dates) stay in their chapter as text;
 * - text before the first chapter or part (title page, dedication, copyright) is the front
 *   matter: one chapter named after what it holds, never after the file;
 * - headings with no words are reported, never spoken.
 */
import { isChapterLine, isPartLine } from '../contract/headings';
import type { Block, FrontKind } from './blocks';
import type { ManuscriptChapter } from './chapters';

export interface StructureReport {
  parts: string[];
  /** What the front matter holds, in order; empty: no front matter. */
  front_matter: FrontKind[];
  /** Headings with no words: their level (0: a line) and the heading before them. */
  empty_headings: { level: number; after: string | null }[];
  /** Headings below the chapter level, kept as text in their chapters. */
  scene_headings: number;
}

export interface Book {
  chapters: ManuscriptChapter[];
  report: StructureReport;
  /**
   * What names the book in its text, when its file's properties do not: a paragraph in Word's
   * Title style, else a lone heading above the chapters.
   */
  title?: string;
}

const FRONT_HEADINGS: [RegExp, FrontKind][] = [
  [/^(?:title page|half title)$/i, 'title page'],
  [/^dedication$/i, 'dedication'],
  [/^epigraph$/i, 'epigraph'],
  [/^copyright(?: page)?$/i, 'copyright'],
  [/^(?:table of )?contents$/i, 'contents'],
];

/** Letters and digits alone, so that "Keeper’s" is "Keeper's". */
const words = (text: string) =>
  text
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
    .toLowerCase();
const same = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && words(a) !== '' && words(a) === words(b);

/** The level chapters start at; 'chapter' and 'part' lines sit at it and just above it. */
function chapterLevel(blocks: Block[]): number {
  const headings = blocks.filter((b) => b.heading !== undefined);
  const numeric = headings.filter((h): h is Block & { heading: number } => typeof h.heading === 'number');
  const named = new Map<number, number>();
  for (const h of numeric) if (isChapterLine(h.text)) named.set(h.heading, (named.get(h.heading) ?? 0) + 1);
  if (named.size > 0) return [...named].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]![0];
  if (headings.some((h) => h.heading === 'chapter') || numeric.length === 0) return 7;
  const levels = [...new Set(numeric.map((h) => h.heading))].sort((a, b) => a - b);
  const top = numeric.filter((h) => h.heading === levels[0]);
  const titleOnly = top.length === 1 && isBookTitle(blocks, top[0]!);
  return levels.length > 1 && (titleOnly || top.every((h) => isPartLine(h.text))) ? levels[1]! : levels[0]!;
}

/** A heading that opens the book and is followed by another heading: a title page's, not a chapter's. */
const isBookTitle = (blocks: Block[], heading: Block) =>
  blocks.find((b) => b.heading !== undefined) === heading && blocks[blocks.indexOf(heading) + 1]?.heading !== undefined;

const levelOf = (block: Block, chapter: number) =>
  block.heading === 'chapter' ? chapter : block.heading === 'part' ? chapter - 0.5 : (block.heading as number);

/** What the file says of itself; `untitled` names a text with no headings at all. */
export interface BookFacts {
  title?: string;
  author?: string;
  untitled: string;
}

export function readStructure(blocks: Block[], book: BookFacts): Book {
  const report: StructureReport = { parts: [], front_matter: [], empty_headings: [], scene_headings: 0 };
  const spoken = blocks.filter((block) => block.heading === undefined || block.text);
  const level = chapterLevel(spoken);
  // each empty heading is placed after the part or chapter heading before it
  let after: string | null = null;
  for (const block of blocks) {
    if (block.heading === undefined) continue;
    if (!block.text) report.empty_headings.push({ level: typeof block.heading === 'number' ? block.heading : 0, after });
    else if (levelOf(block, level) <= level) after = block.text;
  }
  const above = spoken.filter((h) => h.heading !== undefined && levelOf(h, level) < level);
  // a lone heading over everything, no "Part N": the book's title, as a title page says it
  const loneTitle = above.length === 1 && isBookTitle(spoken, above[0]!) && !isPartLine(above[0]!.text) ? above[0] : undefined;
  // Word's Title style names the book where its properties do not
  const styledTitle = blocks.find((block) => block.bookTitle)?.text;
  const title = styledTitle ?? loneTitle?.text;
  const cutter = new Cutter(report, { ...book, untitled: book.title ?? title ?? book.untitled });
  spoken.forEach((block, i) => {
    if (block.heading === undefined) return cutter.text(block);
    const at = levelOf(block, level);
    // an EPUB document's first heading starts a chapter, whatever its level
    if (at > level && !block.opens) {
      report.scene_headings++;
      return cutter.text({ text: block.text });
    }
    if (at === level) return cutter.chapter(block.text);
    const next = spoken[i + 1];
    const titlesBook = block === loneTitle || same(block.text, book.title);
    const opensChapter = next?.heading !== undefined && next.text !== '' && levelOf(next, level) === level;
    if (!titlesBook && (isPartLine(block.text) || opensChapter)) return cutter.openPart(block.text);
    if (titlesBook && !cutter.begun) return cutter.text({ text: block.text, front: 'title page' });
    cutter.chapter(block.text);
  });
  return { chapters: cutter.finish(), report, ...(title ? { title } : {}) };
}

/** Cuts blocks into chapters as structure.ts's rules call it. */
class Cutter {
  private readonly chapters: ManuscriptChapter[] = [];
  private readonly front: string[] = [];
  /** The chapter being cut: its lines, the first `headings` of them its headings. */
  private current: { title: string; part?: string; lines: string[]; headings: number; named: boolean } | null = null;
  private part: string | undefined;
  /** A part heading not yet spoken: its first chapter says it. */
  private unannounced: string | undefined;
  begun = false;

  constructor(
    private readonly report: StructureReport,
    private readonly book: BookFacts,
  ) {}

  text(block: Block): void {
    if (this.current) this.current.lines.push(block.text);
    else if (!this.begun) this.addFront(block);
    else this.chapter(this.unannounced ?? this.part ?? block.text, [block.text]);
  }

  chapter(title: string, body: string[] = []): void {
    const kind = FRONT_HEADINGS.find(([pattern]) => pattern.test(title))?.[1];
    if (!this.begun && kind) return this.addFront({ text: title, front: kind });
    const current = this.current;
    // "Chapter One" then a heading of its level, no text between: the second is its subtitle
    if (current && current.lines.length === current.headings && !current.named && isChapterLine(current.title) && !isChapterLine(title)) {
      current.title = `${current.title}: ${title}`;
      current.named = true;
      current.headings++;
      current.lines.push(title, ...body);
      return;
    }
    this.close();
    this.begun = true;
    const heading = this.unannounced && this.unannounced !== title ? [this.unannounced, title] : [title];
    const part = this.part ? { part: this.part } : {};
    this.current = { title, ...part, lines: [...heading, ...body], headings: heading.length, named: false };
    this.unannounced = undefined;
  }

  openPart(title: string): void {
    this.close();
    this.begun = true;
    this.part = this.unannounced = title;
    this.report.parts.push(title);
  }

  finish(): ManuscriptChapter[] {
    this.close();
    const text = this.front.join('\n\n').trim();
    if (!text) return this.chapters;
    if (this.chapters.length === 0) {
      // no headings at all: one chapter, the book
      this.report.front_matter = [];
      return [{ title: this.book.title ?? this.book.untitled, text }];
    }
    return [{ title: frontTitle(this.report.front_matter), text, front_matter: true }, ...this.chapters];
  }

  private addFront(block: Block): void {
    // an EPUB's title page and its first document may both say the title
    if (this.front.includes(block.text)) return;
    this.front.push(block.text);
    const kind = block.front ?? this.frontKind(block.text);
    if (!this.report.front_matter.includes(kind)) this.report.front_matter.push(kind);
  }

  private frontKind(text: string): FrontKind {
    if (same(text, this.book.title) || same(text, this.book.author) || /^by\s/i.test(text)) return 'title page';
    if (/copyright|©|all rights reserved|\bisbn\b/i.test(text)) return 'copyright';
    if (text.length < 300 && /^(?:for|to|in (?:loving )?memory of)\s/i.test(text)) return 'dedication';
    return 'front matter';
  }

  private close(): void {
    const current = this.current;
    this.current = null;
    if (!current) return;
    this.chapters.push({ title: current.title, text: current.lines.join('\n\n'), ...(current.part ? { part: current.part } : {}) });
  }
}

/** "Title page and dedication"; "Front matter" when nothing in it is recognised. */
export function frontTitle(kinds: FrontKind[]): string {
  const named = kinds.filter((kind) => kind !== 'front matter');
  if (named.length === 0) return 'Front matter';
  const list = named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named.at(-1)}`;
  return list[0]!.toUpperCase() + list.slice(1);
}
