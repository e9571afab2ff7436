import { describe, expect, it } from 'vitest';
import { adversarialLine, cpuMs, WELL_UNDER_A_SECOND_MS } from '../testing/cpu';
import { chapterHeading, isPartLine } from './headings';

describe('chapterHeading', () => {
  it('reads Markdown headings less their closing marks and trailing punctuation', () => {
    expect(chapterHeading('# The Beginning', true)).toBe('The Beginning');
    expect(chapterHeading('  ## Part Two ## ', true)).toBe('Part Two');
    expect(chapterHeading('#\tTabbed:;,. ', true)).toBe('Tabbed');
    expect(chapterHeading('# ###', true)).toBeNull();
    expect(chapterHeading('### Three', true)).toBeNull();
    expect(chapterHeading('#hashtag', true)).toBeNull();
    expect(chapterHeading('# Not in plain text', false)).toBeNull();
    expect(chapterHeading('Chapter 4. ', false)).toBe('Chapter 4');
  });

  it('reads "Part N" lines, alone or with a title after a mark, not sentences that start with the word', () => {
    for (const line of ['Part One', 'PART II', 'Book 3: The Sea', 'Part Twenty-One — Home', 'Volume two.'])
      expect(isPartLine(line)).toBe(true);
    for (const line of ['Part one of the plan was simple.', 'Partly cloudy', 'Part of me']) expect(isPartLine(line)).toBe(false);
  });

  it.each([
    ['a heading whose spaces end in a word', `# a${adversarialLine(' ', 'x')}`],
    ['a heading of closing marks and blanks', `# a${adversarialLine(' #\t')}x`],
    ['trailing punctuation that a word follows', `# a${adversarialLine('.:; ,', 'x')}`],
    ['a plain line of spaces', adversarialLine(' ', 'x')],
  ])('reads %s (100,000 characters) in well under a second of CPU', (_name, line) => {
    expect(cpuMs(() => chapterHeading(line, true))).toBeLessThan(WELL_UNDER_A_SECOND_MS);
    expect(cpuMs(() => chapterHeading(line, false))).toBeLessThan(WELL_UNDER_A_SECOND_MS);
  });
});
