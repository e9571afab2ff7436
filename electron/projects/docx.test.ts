import { execFileSync } from 'node:child_process';
import { strToU8, strFromU8, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { docx } from '../testing/docx';
import { readDocx } from './docx';
import { UnreadableManuscript } from './zip';

const LIMITS = { inflatedBytes: 64 * 1024 * 1024, files: 10_000 };

describe('readDocx', () => {
  it("cuts at Word's headings, keeps runs and paragraphs, and keeps text before them as front matter", async () => {
    const { chapters } = await readDocx(
      docx([
        { runs: ['A foreword & ', 'thanks.'] },
        { style: 'Heading1', runs: ['The Storm'] },
        { runs: ['Rain fell.'] },
        { runs: ['It ', 'did not stop.'] },
        { style: 'Heading1', runs: ['After'] },
        { runs: ['The sun came out.'] },
      ]),
      'Novel',
      LIMITS,
    );
    expect(chapters).toEqual([
      { title: 'Front matter', text: 'A foreword & thanks.', front_matter: true },
      { title: 'The Storm', text: 'The Storm\n\nRain fell.\n\nIt did not stop.' },
      { title: 'After', text: 'After\n\nThe sun came out.' },
    ]);
  });

  it('refuses a file that is not a Word document, saying why', async () => {
    await expect(readDocx(strToU8('not a zip'), 'x', LIMITS)).rejects.toThrow(UnreadableManuscript);
    await expect(readDocx(zipSync({ 'a.txt': strToU8('hi') }), 'x', LIMITS)).rejects.toThrow(/not a readable Word document/);
  });

  it("takes the book's title from Word's Title style when its properties have none, and keeps title and subtitle as its title page", async () => {
    for (const titleStyle of ['Title', 'Titel']) {
      const book = await readDocx(
        docx([
          { style: titleStyle, runs: ['The Lantern ', 'Keeper'] },
          { style: 'Subtitle', runs: ['A Novel'] },
          { runs: ['For my mother.'] },
          { style: 'Heading1', runs: ['Chapter One'] },
          { runs: ['Rain fell.'] },
        ]),
        'manuscript',
        LIMITS,
      );
      expect(book.metadata.title).toBeUndefined();
      expect(book.title).toBe('The Lantern Keeper');
      expect(book.report.front_matter).toEqual(['title page', 'dedication']);
      expect(book.chapters).toEqual([
        { title: 'Title page and dedication', text: 'The Lantern Keeper\n\nA Novel\n\nFor my mother.', front_matter: true },
        { title: 'Chapter One', text: 'Chapter One\n\nRain fell.' },
      ]);
    }
  });

  it('reads the title pandoc puts in a Title paragraph, its properties emptied', async () => {
    const made = execFileSync(
      'pandoc',
      ['-f', 'markdown', '-t', 'docx', '--metadata', 'title=The Tide Tables', '--metadata', 'subtitle=Being a Record'],
      { input: '# Chapter One\n\nThe sea rose.\n\n# Chapter Two\n\nIt fell.\n' },
    );
    const parts = unzipSync(made);
    // a file whose properties say nothing of a title, as many Word documents are
    parts['docProps/core.xml'] = strToU8(strFromU8(parts['docProps/core.xml']!).replace(/<dc:title>[^<]*<\/dc:title>/, ''));
    const book = await readDocx(zipSync(parts), 'tides', LIMITS);
    expect([book.metadata.title, book.title]).toEqual([undefined, 'The Tide Tables']);
    expect(book.chapters.map((c) => [c.title, c.text])).toEqual([
      ['Title page', 'The Tide Tables\n\nBeing a Record'],
      ['Chapter One', 'Chapter One\n\nThe sea rose.'],
      ['Chapter Two', 'Chapter Two\n\nIt fell.'],
    ]);
    // with its properties, they name the book; the Title paragraph stays its title page
    const whole = await readDocx(made, 'tides', LIMITS);
    expect([whole.metadata.title, whole.chapters[0]!.title]).toEqual(['The Tide Tables', 'Title page']);
  });
});
