import { strToU8, zipSync } from 'fflate';
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
});
