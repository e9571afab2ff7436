/**
 * What a chapter heading is, one rule for a project's manuscript (docs/projects.md) and an
 * export's chapter marks (docs/audiobook.md): a Markdown heading of level 1 or 2 (deeper levels
 * are sections within a chapter), or a short line of "Chapter" and a number in digits, Roman
 * numerals or English words ("Chapter 7", "CHAPTER IV. The Storm", "Chapter Twelve").
 */
import { codePoints, trimEndWhere } from './text';

/** A "Chapter …" line longer than this is a sentence that starts with the word. */
export const CHAPTER_LINE_MAX_CHARS = 120;

/** A level 1 or 2 Markdown heading's opening marks; the title is what follows, less a closing run of `#`. */
const MARKDOWN_HEADING = /^ {0,3}#{1,2}[ \t]/;
const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred';
const CHAPTER_LINE = new RegExp(`^\\s*chapter\\s+(\\d+|[ivxlcdm]+|(?:(?:${NUMBER_WORDS})[\\s-]*)+)\\b(?:[\\s.:,—–-].*)?$`, 'i');

/**
 * The title a line gives when it is a chapter heading, else null; Markdown headings count only in
 * Markdown. The title keeps the line's words (a Markdown heading loses its `#` marks) without
 * trailing punctuation.
 */
export function chapterHeading(line: string, markdown: boolean): string | null {
  const heading = markdown ? MARKDOWN_HEADING.exec(line) : null;
  const title = heading
    ? withoutClosingMarks(line.slice(heading[0].length))
    : codePoints(line) <= CHAPTER_LINE_MAX_CHARS && CHAPTER_LINE.test(line)
      ? line
      : null;
  const trimmed = title === null ? '' : trimEndWhere(title.trim(), (char) => TRAILING_PUNCTUATION.test(char));
  return trimmed ? trimmed : null;
}

const TRAILING_PUNCTUATION = /[\s.:;,]/u;
const isBlank = (char: string) => char === ' ' || char === '\t';

/** A heading's text less its optional closing `#` marks and the blanks around them. */
function withoutClosingMarks(text: string): string {
  return trimEndWhere(
    trimEndWhere(trimEndWhere(text, isBlank), (char) => char === '#'),
    isBlank,
  );
}
