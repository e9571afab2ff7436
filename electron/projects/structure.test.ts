import { describe, expect, it } from 'vitest';
import type { Block } from './blocks';
import { readStructure } from './structure';

const h = (heading: number, text: string): Block => ({ heading, text });
const t = (text: string): Block => ({ text });
const read = (blocks: Block[], title?: string) => readStructure(blocks, { untitled: 'file', ...(title ? { title } : {}) });

describe('readStructure', () => {
  it('keeps a Heading 1 directly followed by a Heading 2 (Part One / Chapter One): the part is said before its first chapter', () => {
    const book = read([
      h(1, 'Part One'),
      h(2, 'Chapter One'),
      t('A.'),
      h(2, 'Chapter Two'),
      t('B.'),
      h(1, 'Part Two'),
      h(2, 'Chapter Three'),
      t('C.'),
    ]);
    expect(book.chapters).toEqual([
      { title: 'Chapter One', text: 'Part One\n\nChapter One\n\nA.', part: 'Part One' },
      { title: 'Chapter Two', text: 'Chapter Two\n\nB.', part: 'Part One' },
      { title: 'Chapter Three', text: 'Part Two\n\nChapter Three\n\nC.', part: 'Part Two' },
    ]);
    expect(book.report.parts).toEqual(['Part One', 'Part Two']);
  });

  it('never names a chapter after a scene heading below it, or after one of its level that directly follows it', () => {
    const below = read([
      h(1, 'Chapter One'),
      h(2, 'Caerwythen, March 1887'),
      t('A.'),
      h(2, 'Caerwythen, April 1887'),
      t('B.'),
      h(1, 'Chapter Two'),
      t('C.'),
    ]);
    expect(below.chapters.map((c) => c.title)).toEqual(['Chapter One', 'Chapter Two']);
    expect(below.chapters[0]!.text).toBe('Chapter One\n\nCaerwythen, March 1887\n\nA.\n\nCaerwythen, April 1887\n\nB.');
    expect(below.report.scene_headings).toBe(2);
    const same = read([h(2, 'Chapter One'), h(2, 'Caerwythen, March 1887'), t('A.'), h(2, 'Chapter Two'), t('B.')]);
    expect(same.chapters.map((c) => c.title)).toEqual(['Chapter One: Caerwythen, March 1887', 'Chapter Two']);
  });

  it('keeps front matter as text, named after what it holds; reports headings with no words', () => {
    const book = read(
      [t('The Ledger'), t('For my mother.'), h(1, 'Chapter 1'), t('A.'), h(1, ''), h(1, 'Chapter 2'), t('B.')],
      'The Ledger',
    );
    expect(book.chapters[0]).toEqual({ title: 'Title page and dedication', text: 'The Ledger\n\nFor my mother.', front_matter: true });
    expect(book.report.front_matter).toEqual(['title page', 'dedication']);
    expect(book.report.empty_headings).toEqual([{ level: 1, after: 'Chapter 1' }]);
  });

  it('reads unnumbered headings at the top level as chapters, deeper ones as their sections', () => {
    const book = read([h(1, 'The Storm'), t('A.'), h(2, 'Later'), t('B.'), h(1, 'The Calm'), t('C.')]);
    expect(book.chapters.map((c) => c.title)).toEqual(['The Storm', 'The Calm']);
  });
});
