import { describe, expect, it } from 'vitest';
import type { SentenceTiming } from '../../contract';
import { headingTitle, planChapters, type ChapterSource } from './chapters';

/** Sentences one second apart; "|" after a sentence ends its paragraph. */
function sentences(...texts: string[]): SentenceTiming[] {
  let at = 0;
  return texts.map((raw, i) => {
    const text = raw.replace(/\|$/, '');
    const sentence = {
      start_s: i,
      end_s: i + 0.8,
      text_start: at,
      text_end: at + text.length,
      text,
      ...(raw.endsWith('|') ? { paragraph_end: true } : {}),
    };
    at += text.length + 1;
    return sentence;
  });
}

const job = (title: string, list: SentenceTiming[], titleGiven = false): ChapterSource => ({
  jobId: title,
  title,
  titleGiven,
  sentences: list,
});

describe('headingTitle', () => {
  it('reads Markdown headings and Chapter lines, and nothing else', () => {
    expect(headingTitle('# The Beginning')).toBe('The Beginning');
    expect(headingTitle('## Part Two ##')).toBe('Part Two');
    expect(headingTitle('### A section')).toBeNull();
    expect(headingTitle('Chapter 7')).toBe('Chapter 7');
    expect(headingTitle('CHAPTER IV. The Rabbit Sends in a Little Bill.')).toBe('CHAPTER IV. The Rabbit Sends in a Little Bill');
    expect(headingTitle('Chapter One: The Storm')).toBe('Chapter One: The Storm');
    expect(headingTitle('#hashtag is not a heading')).toBeNull();
    expect(headingTitle('The chapter ends here.')).toBeNull();
    expect(headingTitle(`Chapter 3 ${'and a very long paragraph '.repeat(6)}`)).toBeNull();
  });
});

describe('planChapters', () => {
  const book = sentences('# Opening|', 'Some text.', 'More text.|', 'Chapter 2|', 'It goes on.');
  const plain = sentences('No heading here.', 'Still none.');

  it('"auto": a chapter per heading paragraph, and one per job that opens without one', () => {
    const chapters = planChapters([job('first job', book), job('second job', plain)], 'auto');
    expect(chapters.map((c) => [c.title, c.job, c.sentence, c.startS])).toEqual([
      ['Opening', 0, 0, 0],
      ['Chapter 2', 0, 3, 3],
      ['second job', 1, 0, 0],
    ]);
  });

  it('"jobs": one per job, titled by its given title, else its opening heading, else its text', () => {
    const titles = (given: boolean) => planChapters([job('Given', book, given), job('second job', plain)], 'jobs').map((c) => c.title);
    expect(titles(true)).toEqual(['Given', 'second job']);
    expect(titles(false)).toEqual(['Opening', 'second job']);
  });

  it('explicit: at the sentences holding the offsets, with one for a job that starts without', () => {
    const offset = book[2]!.text_start + 2;
    const chapters = planChapters(
      [job('a', book), job('b', plain)],
      [
        { job_id: 'a', title: 'Middle', text_offset: offset },
        { job_id: 'a', title: 'Same sentence', text_offset: offset + 1 },
      ],
    );
    expect(chapters.map((c) => [c.title, c.sentence])).toEqual([
      ['Opening', 0],
      ['Middle', 2],
      ['b', 0],
    ]);
  });
});
