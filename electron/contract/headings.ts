/**
 * What a chapter heading is, one rule for a project's manuscript (docs/projects.md) and an
 * export's chapter marks (docs/audiobook.md): a Markdown heading of level 1 or 2 (deeper levels
 * are sections within a chapter), or a short line of "Chapter" and a number in digits, Roman
 * numerals or English words ("Chapter 7", "CHAPTER IV. The Storm", "Chapter Twelve").
 */
import { codePoints, trimEndWhere } from './text';

/** A "Chapter …" line longer than this is a sentence that starts with the word. */
export const CHAPTER_LINE_MAX_CHARS = 120;

/** A Markdown heading's opening marks (level 1 to 6); the title is what follows, less a closing run of `#`. */
const MARKDOWN_HEADING = /^ {0,3}(#{1,6})(?:[ \t]|$)/;
const NUMBER_WORDS =
  'one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred';
const NUMBER = `(\\d+|[ivxlcdm]+|(?:(?:${NUMBER_WORDS})[\\s-]*)+)`;
const CHAPTER_LINE = new RegExp(`^\\s*chapter\\s+${NUMBER}\\b(?:[\\s.:,—–-].*)?$`, 'i');
/** "Part One", "BOOK II: The Sea", "Part 3 — Home": a title comes after a mark, so "Part one of the plan" is a sentence. */
const PART_NUMBER = `(?:\\d+|[ivxlcdm]+|(?:${NUMBER_WORDS})(?:[ -](?:${NUMBER_WORDS}))*)`;
const PART_LINE = new RegExp(`^\\s*(?:part|book|volume)\\s+${PART_NUMBER}\\b\\s*(?:[.:—–-].*)?$`, 'i');

/**
 * The title a line gives when it is a chapter heading, else null; Markdown headings count only in
 * Markdown. The title keeps the line's words (a Markdown heading loses its `#` marks) without
 * trailing punctuation.
 */
export function chapterHeading(line: string, markdown: boolean): string | null {
  const heading = markdown ? markdownHeading(line) : null;
  if (heading) return heading.level <= 2 && heading.title ? heading.title : null;
  return isChapterLine(line) ? withoutTrailingPunctuation(line) || null : null;
}

/** A Markdown heading of any level and its title (empty for a heading with no words), else null. */
export function markdownHeading(line: string): { level: number; title: string } | null {
  const heading = MARKDOWN_HEADING.exec(line);
  if (!heading) return null;
  return { level: heading[1]!.length, title: withoutTrailingPunctuation(withoutClosingMarks(line.slice(heading[0].length))) };
}

/** A short line of "Chapter" and a number ("Chapter 7", "CHAPTER IV. The Storm"). */
export const isChapterLine = (line: string) => codePoints(line) <= CHAPTER_LINE_MAX_CHARS && CHAPTER_LINE.test(line);

/** A short line of "Part", "Book" or "Volume" and a number, alone or with a title after a mark ("Part Two: The Sea"). */
export const isPartLine = (line: string) => codePoints(line) <= CHAPTER_LINE_MAX_CHARS && PART_LINE.test(line);

/** A title less trailing blanks and punctuation ("Chapter 4. " is "Chapter 4"). */
export const withoutTrailingPunctuation = (title: string) => trimEndWhere(title.trim(), (char) => TRAILING_PUNCTUATION.test(char));

const TRAILING_PUNCTUATION = /[\s.:;,]/u;
const isBlank = (char: string) => char === ' ' || char === '\t';

/** A heading's text less its optional closing `#` marks and the blanks around them. */
function withoutClosingMarks(text: string): string {
  return trimEndWhere(
    trimEndWhere(trimEndWhere(text, isBlank), (char) => char === '#'),
    isBlank,
  );
}
