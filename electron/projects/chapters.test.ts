import { describe, expect, it } from 'vitest';
import { splitChapters } from './chapters';
import { plainMarkdown } from './markdown-text';

const md = { markdown: true, untitled: 'Book' };
const txt = { markdown: false, untitled: 'Book' };

describe('splitChapters', () => {
  it('cuts Markdown at level 1 and 2 headings, the heading spoken first', () => {
    const chapters = splitChapters('# The Book\n\n## One\nFirst *text*.\n\n## Two\nSecond.\n### Aside\nStill two.\n', md);
    expect(chapters).toEqual([
      { title: 'One', text: 'One\n\nFirst text.' },
      { title: 'Two', text: 'Two\n\nSecond.\nAside\nStill two.' },
    ]);
  });

  it('keeps text before the first heading as a chapter of its own', () => {
    expect(splitChapters('A preface.\n# Start\nBody.', md).map((c) => c.title)).toEqual(['Book', 'Start']);
  });

  it('reads "Chapter N" lines in plain text: digits, Roman numerals, words, with a title', () => {
    const text = 'Chapter 1\nA.\nCHAPTER IV. The Storm\nB.\nChapter Twenty-One: Home\nC.\nChapter and verse are quoted.\n';
    const chapters = splitChapters(text, txt);
    expect(chapters.map((c) => c.title)).toEqual(['Chapter 1', 'CHAPTER IV. The Storm', 'Chapter Twenty-One: Home']);
    expect(chapters[2]!.text).toBe('Chapter Twenty-One: Home\n\nC.\nChapter and verse are quoted.');
  });

  it('gives a file without markers one chapter, and no chapter for blank text', () => {
    expect(splitChapters('Just a story.\n\n# not a heading in .txt', txt)).toHaveLength(1);
    expect(splitChapters(' \n\n', txt)).toEqual([]);
  });

  it('ignores headings inside fenced code', () => {
    expect(splitChapters('# A\ntext\n```\n# not\n```\n', md)).toHaveLength(1);
  });

  it('reads Markdown as words', () => {
    expect(plainMarkdown('> See [the site](http://x) and ![a map](m.png), **now**.')).toBe('See the site and a map, now.');
    expect(plainMarkdown('- item')).toBe('item');
    expect(plainMarkdown('***')).toBe('');
  });
});
