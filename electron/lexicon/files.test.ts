import { describe, expect, it } from 'vitest';
import { LEXICON_LIMITS, type LexiconEntry } from '../contract';
import { readCsv, writeCsv } from './csv';
import { cpuMs, WELL_UNDER_A_SECOND_MS } from '../testing/cpu';
import { emptyElementsPls, hugeFieldCsv, laughsPls, nestedPls, rowsCsv } from '../testing/hostile-documents';
import { LexiconFileError, LexiconFileTooLarge } from './file-errors';
import { readPls, writePls } from './pls';

const entries: LexiconEntry[] = [
  {
    id: 'a',
    grapheme: 'Siobhan',
    phoneme: "S@v'O:n",
    alphabet: 'x-espeak',
    alias: 'Shivawn',
    language: 'en',
    case_sensitive: false,
    whole_word: true,
  },
  {
    id: 'b',
    grapheme: 'R&D, "labs" <x>',
    alias: 'research and development',
    language: 'en',
    voice: 'espeak-ng:en-us',
    case_sensitive: true,
    whole_word: false,
  },
  { id: 'c', grapheme: 'tomato', phoneme: 'təˈmɑːtəʊ', alphabet: 'ipa', language: 'en', case_sensitive: false, whole_word: true },
];
const withoutIds = (list: LexiconEntry[]) => list.map(({ id: _id, ...rest }) => rest);

describe('lexicon files', () => {
  it('reads back the PLS it writes, Orator attributes included', () => {
    expect(readPls(writePls(entries, 'en'))).toEqual(withoutIds(entries));
  });

  it('reads back the CSV it writes', () => {
    expect(readCsv(writeCsv(entries), undefined)).toEqual(withoutIds(entries));
  });

  it('reads a plain W3C PLS file: several graphemes, the lexicon alphabet, prefixed names', () => {
    const pls = `<?xml version="1.0"?>
<!-- a comment -->
<pls:lexicon version="1.0" xmlns:pls="http://www.w3.org/2005/01/pronunciation-lexicon" alphabet="ipa" xml:lang="en-GB">
  <pls:lexeme><pls:grapheme>colour</pls:grapheme><pls:grapheme>color</pls:grapheme><pls:phoneme>ˈkʌlə</pls:phoneme></pls:lexeme>
  <pls:lexeme><pls:grapheme>W3C</pls:grapheme><pls:alias><![CDATA[World Wide Web Consortium]]></pls:alias></pls:lexeme>
</pls:lexicon>`;
    expect(readPls(pls)).toEqual([
      { grapheme: 'colour', language: 'en-GB', phoneme: 'ˈkʌlə', alphabet: 'ipa', case_sensitive: false, whole_word: true },
      { grapheme: 'color', language: 'en-GB', phoneme: 'ˈkʌlə', alphabet: 'ipa', case_sensitive: false, whole_word: true },
      { grapheme: 'W3C', language: 'en-GB', alias: 'World Wide Web Consortium', case_sensitive: false, whole_word: true },
    ]);
  });

  it('refuses malformed PLS with its position, and any DOCTYPE', () => {
    expect(() => readPls('<lexicon xml:lang="en">\n  <lexeme><grapheme>a</lexeme>\n</lexicon>')).toThrow(
      /cannot be read at line 2, column \d+: Unexpected close tag\./,
    );
    const laughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">]><lexicon xml:lang="en">&lol;</lexicon>';
    expect(() => readPls(laughs)).toThrow(/DOCTYPE is not allowed/);
    expect(() => readPls('<lexicon xml:lang="en"><lexeme><grapheme>x</grapheme></lexeme></lexicon>')).toThrow(
      /line 1: "x" needs an alias, a phoneme, or both/,
    );
    expect(() => readPls('<lexicon><lexeme/></lexicon>')).toThrow(/no xml:lang/);
    expect(() => readPls(`${'<a>'.repeat(10_000)}`)).toThrow(LexiconFileError);
  });

  it('reads a large PLS file in linear time', () => {
    const lexemes = Array.from(
      { length: LEXICON_LIMITS.entries - 1 },
      (_, i) => `  <lexeme>\n    <grapheme>w${i}</grapheme>\n    <alias>a</alias>\n  </lexeme>\n`,
    );
    const pls = `<lexicon xml:lang="en">\n${lexemes.join('')}  <lexeme><grapheme>x</grapheme></lexeme>\n</lexicon>`;
    const started = performance.now();
    // the last lexeme is wrong: its position is found at the end of 20,000 lines
    expect(() => readPls(pls)).toThrow('the <lexeme> at line 19998');
    expect(performance.now() - started).toBeLessThan(3000);
  });

  it('reads CSV with quoted fields, a default language and only the columns given', () => {
    const csv = 'grapheme,alias\r\n"Smith, Jr.","Smith junior"\nGIF,"jif ""soft g"""\n\n';
    expect(readCsv(csv, 'en-US')).toEqual([
      { grapheme: 'Smith, Jr.', alias: 'Smith junior', language: 'en-US' },
      { grapheme: 'GIF', alias: 'jif "soft g"', language: 'en-US' },
    ]);
  });

  it('refuses malformed CSV with its line', () => {
    expect(() => readCsv('grapheme,alias\nGIF,jif,extra\n', 'en')).toThrow(/CSV line 2 has 3 fields; the header has 2/);
    expect(() => readCsv('grapheme,alias\nGIF,"jif\n', 'en')).toThrow(/CSV line 2: a quoted field is not closed/);
    expect(() => readCsv('word,alias\nGIF,jif\n', 'en')).toThrow(/column "word" is unknown/);
    expect(() => readCsv('grapheme,alias\nGIF,jif\n', undefined)).toThrow(/CSV line 2 has no language/);
    expect(() => readCsv('grapheme,phoneme,language\nGIF,[[x]],en\n', undefined)).toThrow(/CSV line 2: .*printable ASCII/);
  });

  it('stops reading at the entry limit, whatever follows: 1,000,000 CSV rows, 5.9 million PLS elements', () => {
    const csv = rowsCsv(1_000_000);
    expect(() => readCsv(csv, 'en')).toThrow(LexiconFileTooLarge);
    expect(() => readCsv(csv, 'en')).toThrow('The file has more than 5,000 entries, the most a lexicon holds.');
    expect(cpuMs(() => expect(() => readCsv(csv, 'en')).toThrow())).toBeLessThan(WELL_UNDER_A_SECOND_MS);
    const pls = emptyElementsPls(5_900_000);
    expect(() => readPls(pls)).toThrow('The PLS file has more than 50,000 elements; a full lexicon needs far fewer.');
    expect(cpuMs(() => expect(() => readPls(pls)).toThrow(LexiconFileTooLarge))).toBeLessThan(WELL_UNDER_A_SECOND_MS);
    expect(readCsv(rowsCsv(LEXICON_LIMITS.entries), 'en')).toHaveLength(LEXICON_LIMITS.entries);
  });

  it('refuses PLS by the policy SSML has: a DOCTYPE, more than 64 levels', () => {
    expect(() => readPls(laughsPls())).toThrow(/A DOCTYPE is not allowed: no entity is ever defined or expanded/);
    expect(() => readPls(nestedPls(64))).toThrow(/Elements are nested more than 64 deep/);
    expect(() => readPls(nestedPls(62))).toThrow(/has no <grapheme>/);
  });

  it('reads a CSV field of 20 million characters once, and refuses it', () => {
    expect(cpuMs(() => expect(() => readCsv(hugeFieldCsv(20_000_000), undefined)).toThrow(/CSV line 2: "grapheme"/))).toBeLessThan(
      WELL_UNDER_A_SECOND_MS,
    );
    expect(
      readCsv(
        `grapheme,alias,language
"${'""'.repeat(40)}",b,en
`,
        undefined,
      )[0]!.grapheme,
    ).toBe('"'.repeat(40));
  });
});
