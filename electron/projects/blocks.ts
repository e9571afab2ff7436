/**
 * A manuscript as blocks: headings with their level, and text. Every format is read into blocks
 * (Word's and EPUB's markup, Markdown's lines, plain text's lines), and one module, structure.ts,
 * decides what the headings are: parts, chapters, scene headings or front matter.
 */
import { isChapterLine, isPartLine, markdownHeading, withoutTrailingPunctuation } from '../contract/headings';
import { htmlText } from './html-text';
import { plainMarkdown } from './markdown-text';

/** Kinds of front matter a narrator recognises; the import report names them. */
export type FrontKind = 'title page' | 'dedication' | 'epigraph' | 'copyright' | 'contents' | 'front matter';

export interface Block {
  /**
   * A heading's level: 1 to 6 for a styled heading (Word's Heading N, HTML's hN, Markdown's #);
   * 'chapter' for a "Chapter N" line and 'part' for a "Part N" line in running text; absent for text.
   */
  heading?: number | 'chapter' | 'part';
  /** The words; a heading's may be empty (it is reported, never spoken). */
  text: string;
  /** What the document says it is (EPUB's epub:type), when it says it is front matter. */
  front?: FrontKind;
  /** A heading that opens an EPUB document: a chapter at least. */
  opens?: true;
  /** Text the document styles as the book's title (Word's Title style): a title page's line. */
  bookTitle?: true;
}

/** Marks a heading's paragraph in the text htmlText makes; removed from the manuscript first. */
const HEADING_MARK = '\u0001';
/** The text a reader gives a heading with no words that its converter would drop (docx.ts). */
export const EMPTY_HEADING = '\u0002';
/** What a reader puts before a paragraph styled as the book's title or subtitle (docx.ts). */
export const TITLE_MARK = '\u0003';
export const SUBTITLE_MARK = '\u0004';

/** Lines of running text that are headings: "Chapter N", "Part N". */
function lineHeading(line: string): Block | null {
  if (isChapterLine(line)) return { heading: 'chapter', text: withoutTrailingPunctuation(line) };
  if (isPartLine(line)) return { heading: 'part', text: withoutTrailingPunctuation(line) };
  return null;
}

/** HTML (mammoth's, an EPUB document's body) as blocks: hN elements are headings, each paragraph is text. */
export function htmlBlocks(markup: string, front?: FrontKind): Block[] {
  const marked = markup
    .replaceAll(HEADING_MARK, '')
    // a class up to the next "<" or ">" is one tag, read once
    .replace(/<h([1-6])\b[^<>]*>/gi, (_tag, level: string) => `<p>${HEADING_MARK}${level}`)
    .replace(/<\/h[1-6]\s*>/gi, '</p>');
  const blocks: Block[] = [];
  for (const paragraph of htmlText(marked).split(/\n{2,}/)) {
    if (paragraph.startsWith(HEADING_MARK)) {
      const words = paragraph.slice(2).replaceAll(EMPTY_HEADING, '').replace(/\s+/g, ' ');
      blocks.push({ heading: Number(paragraph[1]), text: withoutTrailingPunctuation(words) });
    } else if (paragraph.startsWith(TITLE_MARK) || paragraph.startsWith(SUBTITLE_MARK)) {
      const text = paragraph.slice(1).replace(/\s+/g, ' ').trim();
      if (text) blocks.push({ text, front: 'title page', ...(paragraph.startsWith(TITLE_MARK) ? { bookTitle: true as const } : {}) });
    } else if (paragraph) blocks.push({ ...(lineHeading(paragraph) ?? { text: paragraph }), ...(front ? { front } : {}) });
  }
  return blocks;
}

/**
 * A text file as blocks: in Markdown, headings of every level (not inside fenced code) read as
 * words; in any file, "Chapter N" and "Part N" lines. Other lines stay together as they were, a
 * blank line ending a block.
 */
export function textBlocks(text: string, markdown: boolean): Block[] {
  const blocks: Block[] = [];
  let lines: string[] = [];
  const flush = () => {
    const body = lines.join('\n').trim();
    if (body) blocks.push({ text: body });
    lines = [];
  };
  let fence = false;
  for (const line of withoutFrontMatter(text.replace(/\r\n?/g, '\n'), markdown).split('\n')) {
    if (markdown && /^ {0,3}(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? null : markdown ? markdownBlock(line) : lineHeading(line);
    if (heading) {
      flush();
      blocks.push(heading);
    } else if (!fence && !line.trim()) flush();
    else lines.push(markdown ? plainMarkdown(line) : line);
  }
  flush();
  return blocks;
}

function markdownBlock(line: string): Block | null {
  const heading = markdownHeading(line);
  if (!heading) return lineHeading(line);
  return { heading: heading.level, text: withoutTrailingPunctuation(plainMarkdown(heading.title)) };
}

/** Metadata a Markdown file may open with: a YAML block or pandoc's "%" lines. Not spoken. */
export interface TextMetadata {
  title?: string;
  author?: string;
  language?: string;
}

const YAML_BLOCK = /^---[ \t]*\n([^]*?)\n(?:---|\.\.\.)[ \t]*(?:\n|$)/;

export function markdownMetadata(text: string): TextMetadata {
  const normalized = text.replace(/\r\n?/g, '\n');
  const yaml = YAML_BLOCK.exec(normalized);
  if (yaml) {
    const field = (name: string) =>
      new RegExp(`^${name}:[ \\t]*(.*)$`, 'm')
        .exec(yaml[1]!)?.[1]
        ?.replace(/^(["'])(.*)\1$/, '$2')
        .trim();
    return definedFields({ title: field('title'), author: field('author'), language: field('lang') ?? field('language') });
  }
  const percent = /^% (.*)\n(?:% (.*)\n)?/.exec(normalized);
  return percent ? definedFields({ title: percent[1]?.trim(), author: percent[2]?.trim() }) : {};
}

function withoutFrontMatter(text: string, markdown: boolean): string {
  if (!markdown) return text;
  const yaml = YAML_BLOCK.exec(text);
  if (yaml) return text.slice(yaml[0].length);
  return text.replace(/^(?:% .*\n){1,3}/, '');
}

function definedFields<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => typeof value === 'string' && value)) as Partial<T>;
}
