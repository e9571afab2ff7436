import { describe, expect, it } from 'vitest';
import type { LexiconEntry } from '../contract';
import { compileRewrite, languageCovers, spokenOffset, type SpeakingVoice } from './rewrite';

let next = 0;
const entry = (fields: Partial<LexiconEntry> & Pick<LexiconEntry, 'grapheme'>): LexiconEntry => ({
  id: String(next++),
  language: 'en',
  case_sensitive: false,
  whole_word: true,
  ...fields,
});
const espeakUs: SpeakingVoice = { voiceId: 'espeak-ng:en-us', language: 'en-US', phonemeAlphabet: 'x-espeak' };
const fliteUs: SpeakingVoice = { voiceId: 'flite:kal16', language: 'en-US' };
const rewrite = (entries: LexiconEntry[], text: string, voice = espeakUs) => compileRewrite(entries, voice)(text).text;

describe('lexicon rewrite', () => {
  it('replaces whole words in any case by default, and leaves words that contain them', () => {
    const entries = [entry({ grapheme: 'SQL', alias: 'sequel' })];
    expect(rewrite(entries, 'SQL, sql and Sql; not SQLite or MySQL.')).toBe('sequel, sequel and sequel; not SQLite or MySQL.');
  });

  it('matches inside words when whole_word is false, and only the exact case when case_sensitive', () => {
    expect(rewrite([entry({ grapheme: 'ph', alias: 'f', whole_word: false })], 'Graph philosophy')).toBe('Graf filosofy');
    expect(rewrite([entry({ grapheme: 'US', alias: 'United States', case_sensitive: true })], 'US and us')).toBe('United States and us');
  });

  it('prefers the longest grapheme and never matches what an entry put in', () => {
    const entries = [
      entry({ grapheme: 'New York', alias: 'the big apple' }),
      entry({ grapheme: 'York', alias: 'Yorrk' }),
      entry({ grapheme: 'apple', alias: 'pear' }),
    ];
    expect(rewrite(entries, 'New\n York and York')).toBe('the big apple and Yorrk');
  });

  it('gives eSpeak phonemes to engines that read them and the alias to the rest', () => {
    const entries = [entry({ grapheme: 'Siobhan', phoneme: "S@v'O:n", alias: 'Shivawn' })];
    expect(rewrite(entries, 'Siobhan sings.')).toBe("[[S@v'O:n]] sings.");
    expect(rewrite(entries, 'Siobhan sings.', fliteUs)).toBe('Shivawn sings.');
    expect(rewrite([entry({ grapheme: 'Siobhan', phoneme: "S@v'O:n" })], 'Siobhan.', fliteUs)).toBe('Siobhan.');
  });

  it('applies entries of the voice and its language only, the most specific first', () => {
    const entries = [
      entry({ grapheme: 'tomato', alias: 'tomayto' }),
      entry({ grapheme: 'tomato', alias: 'tomahto', language: 'en-GB' }),
      entry({ grapheme: 'tomato', alias: 'tomatl', voice: 'espeak-ng:en-us' }),
      entry({ grapheme: 'chat', alias: 'shah', language: 'fr' }),
    ];
    expect(rewrite(entries, 'tomato chat')).toBe('tomatl chat');
    expect(rewrite(entries, 'tomato chat', fliteUs)).toBe('tomayto chat');
    expect(rewrite(entries, 'tomato', { voiceId: 'espeak-ng:en-gb', language: 'en-GB' })).toBe('tomahto');
    expect(rewrite(entries, 'chat', { voiceId: 'espeak-ng:fr', language: 'fr-FR' })).toBe('shah');
  });

  it('treats regex characters and letters beyond ASCII literally', () => {
    const entries = [entry({ grapheme: 'C++', alias: 'C plus plus' }), entry({ grapheme: 'Ærøskøbing', alias: 'Arroskobing' })];
    expect(rewrite(entries, 'C++ in ÆRØSKØBING, not C+ or Cx+.')).toBe('C plus plus in Arroskobing, not C+ or Cx+.');
  });

  it('knows which languages cover which', () => {
    expect(languageCovers('en', 'en-US')).toBe(true);
    expect(languageCovers('EN-us', 'en-US')).toBe(true);
    expect(languageCovers('en-GB', 'en-US')).toBe(false);
    expect(languageCovers('e', 'en-US')).toBe(false);
  });

  it('compiles and applies a full lexicon quickly', () => {
    const entries = Array.from({ length: 5000 }, (_, i) => entry({ grapheme: `Name${i} Surname${i}`, alias: `person ${i}` }));
    const { value: out, cpuMs } = cpuTimed(() =>
      compileRewrite(entries, espeakUs)('Name4999 Surname4999 met Name1 Surname1. '.repeat(250)),
    );
    expect(out.text.startsWith('person 4999 met person 1.')).toBe(true);
    expect(cpuMs).toBeLessThan(2000);
  });

  it('says where each replacement came from, and maps written offsets to spoken ones', () => {
    const apply = compileRewrite(
      [entry({ grapheme: 'Iseult', alias: 'Ee zolda' }), entry({ grapheme: 'Branoc', phoneme: "br'an@x" })],
      espeakUs,
    );
    const written = 'Iseult met Branoc. Then Iseult left.';
    const spoken = apply(written);
    expect(spoken.text).toBe("Ee zolda met [[br'an@x]]. Then Ee zolda left.");
    expect(spoken.replacements.map(([a, b, c, d]) => [written.slice(a, b), spoken.text.slice(c, d)])).toEqual([
      ['Iseult', 'Ee zolda'],
      ['Branoc', "[[br'an@x]]"],
      ['Iseult', 'Ee zolda'],
    ]);
    const at = (offset: number) => spokenOffset(spoken.replacements, offset).offset;
    expect(spoken.text.slice(at(0), at(written.indexOf('.') + 1))).toBe("Ee zolda met [[br'an@x]].");
    expect(spoken.text.slice(at(written.indexOf('Then')))).toBe('Then Ee zolda left.');
    // inside a replacement: its spoken end
    expect(at(2)).toBe('Ee zolda'.length);
  });
});

/** The CPU time a step takes (user and system), not the wall clock of a loaded machine. */
function cpuTimed<T>(step: () => T): { value: T; cpuMs: number } {
  const before = process.cpuUsage();
  const value = step();
  const { user, system } = process.cpuUsage(before);
  return { value, cpuMs: (user + system) / 1000 };
}

describe('lexicon rewrite on adversarial lines (issue 29)', () => {
  const line = 100_000;

  it('crosses a run of whitespace once: "a", 100,000 spaces, "b" with one entry', () => {
    const text = `a${' '.repeat(line - 2)}b`;
    const apply = compileRewrite([entry({ grapheme: 'Iseult', alias: 'Ee zolda' }), entry({ grapheme: 'a b', alias: 'x' })], espeakUs);
    const { value, cpuMs } = cpuTimed(() => apply(text));
    expect(value.text).toBe('x');
    const { value: untouched, cpuMs: untouchedMs } = cpuTimed(() => apply(`${text}c`));
    expect(untouched.text).toBe(`${text}c`);
    console.log(`100,000-character whitespace line: ${cpuMs.toFixed(1)} and ${untouchedMs.toFixed(1)} ms of CPU`);
    expect(cpuMs + untouchedMs).toBeLessThan(1000);
  });

  it('walks at most one grapheme deep at each place: 100,000 "a" against a grapheme of 99 "a" and a "b"', () => {
    const apply = compileRewrite(
      [
        entry({ grapheme: `${'a'.repeat(99)}b`, alias: 'x', whole_word: false }),
        entry({ grapheme: `${'a '.repeat(49)}b`, alias: 'y', case_sensitive: true }),
      ],
      espeakUs,
    );
    for (const text of ['a'.repeat(line), 'a '.repeat(line / 2), `A${' '.repeat(999)}`.repeat(line / 1000)]) {
      const { value, cpuMs } = cpuTimed(() => apply(text));
      expect(value.text).toBe(text);
      console.log(`100,000-character line built against the trie: ${cpuMs.toFixed(1)} ms of CPU`);
      expect(cpuMs).toBeLessThan(1000);
    }
  });
});
