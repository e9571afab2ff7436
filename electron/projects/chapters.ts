/**
 * A manuscript cut into chapters at its headings (contract/headings.ts: Markdown headings in .md
 * files, "Chapter N" lines in any file). A file without either is one chapter.
 */
import { chapterHeading } from '../contract';
import { plainMarkdown } from './markdown-text';

export interface ManuscriptChapter {
  title: string;
  /** The text as spoken: the heading as a first paragraph, then the body. */
  text: string;
}

/** Whether the file's name says it is Markdown. */
export const isMarkdownName = (name: string) => /\.(md|markdown)$/i.test(name);

/** The heading a line makes (chapterHeading, with Markdown's marks read away), or null for body text. */
function headingOf(line: string, markdown: boolean): string | null {
  const title = chapterHeading(line, markdown);
  return title === null || !markdown ? title : plainMarkdown(title).trim() || null;
}

/**
 * Cuts `text` into chapters. Text before the first heading is a chapter titled `untitled` when it
 * holds anything; a heading followed by no text before the next heading (a book's title above its
 * first chapter) gives no chapter of its own.
 */
export function splitChapters(text: string, options: { markdown: boolean; untitled: string }): ManuscriptChapter[] {
  const chapters: ManuscriptChapter[] = [];
  let title: string | null = null;
  let body: string[] = [];
  const close = () => {
    const spoken = (options.markdown ? body.map(plainMarkdown) : body).join('\n').trim();
    if (spoken) chapters.push({ title: title ?? options.untitled, text: title === null ? spoken : `${title}\n\n${spoken}` });
  };
  let fence = false;
  for (const line of text.replace(/\r\n?/g, '\n').split('\n')) {
    if (options.markdown && /^ {0,3}(```|~~~)/.test(line)) fence = !fence;
    const heading = fence ? null : headingOf(line, options.markdown);
    if (heading === null) {
      body.push(line);
      continue;
    }
    close();
    title = heading;
    body = [];
  }
  close();
  return chapters;
}
