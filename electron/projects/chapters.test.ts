import { describe, expect, it } from 'vitest';
import { readText } from './chapters';
import { plainMarkdown } from './markdown-text';

const md = { markdown: true, untitled: 'Book' };
const txt = { markdown: false, untitled: 'Book' };

describe('readText', () => {
  it('cuts Markdown at its chapter headings, the heading spoken first; a lone title above them is the title page', () => {
    const book = readText('# The Book\n\n## One\nFirst *text*.\n\n## Two\nSecond.\n### Aside\nStill two.\n', md);
    expect(book.title).toBe('The Book');
    expect(book.chapters).toEqual([
      { title: 'Title page', text: 'The Book', front_matter: true },
      { title: 'One', text: 'One\n\nFirst text.' },
      { title: 'Two', text: 'Two\n\nSecond.\n\nAside\n\nStill two.' },
    ]);
    expect(book.report.scene_headings).toBe(1);
  });

  it('keeps text before the first heading as front matter, named after what it holds, never after the file', () => {
    const book = readText('For my mother.\n\nCopyright © 2024 A. Writer.\n# Start\nBody.', md);
    expect(book.chapters.map((c) => c.title)).toEqual(['Dedication and copyright', 'Start']);
    expect(readText('A preface.\n# Start\nBody.', md).chapters[0]!.title).toBe('Front matter');
  });

  it('reads "Chapter N" and "Part N" lines in plain text: digits, Roman numerals, words, with a title', () => {
    const text =
      'PART ONE\nChapter 1\nA.\nCHAPTER IV. The Storm\nB.\nPart Two: Home\nChapter Twenty-One: Home\nC.\nChapter and verse are quoted.\n';
    const book = readText(text, txt);
    expect(book.chapters.map((c) => [c.title, c.part])).toEqual([
      ['Chapter 1', 'PART ONE'],
      ['CHAPTER IV. The Storm', 'PART ONE'],
      ['Chapter Twenty-One: Home', 'Part Two: Home'],
    ]);
    expect(book.chapters[0]!.text).toBe('PART ONE\n\nChapter 1\n\nA.');
    expect(book.chapters[2]!.text).toBe('Part Two: Home\n\nChapter Twenty-One: Home\n\nC.\nChapter and verse are quoted.');
    expect(book.report.parts).toEqual(['PART ONE', 'Part Two: Home']);
  });

  it('gives a file without markers one chapter, and no chapter for blank text', () => {
    expect(readText('Just a story.\n\n# not a heading in .txt', txt).chapters).toEqual([
      { title: 'Book', text: 'Just a story.\n\n# not a heading in .txt' },
    ]);
    expect(readText(' \n\n', txt).chapters).toEqual([]);
  });

  it('ignores headings inside fenced code', () => {
    expect(readText('# A\ntext\n```\n# not\n```\n', md).chapters).toHaveLength(1);
  });

  it("reads a Markdown file's YAML metadata and does not speak it", () => {
    const book = readText('---\ntitle: "The Ledger"\nauthor: M. Q.\nlang: en-GB\n---\n# Chapter 1\nText.', md);
    expect(book.metadata).toEqual({ title: 'The Ledger', author: 'M. Q.', language: 'en-GB' });
    expect(book.chapters).toEqual([{ title: 'Chapter 1', text: 'Chapter 1\n\nText.' }]);
  });

  it('reads Markdown as words', () => {
    expect(plainMarkdown('> See [the site](http://x) and ![a map](m.png), **now**.')).toBe('See the site and a map, now.');
    expect(plainMarkdown('- item')).toBe('item');
    expect(plainMarkdown('***')).toBe('');
  });
});
