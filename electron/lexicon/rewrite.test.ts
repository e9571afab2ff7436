import { describe, expect, it } from 'vitest';
import type { LexiconEntry } from '../contract';
import { compileRewrite, languageCovers, type SpeakingVoice } from './rewrite';

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
const rewrite = (entries: LexiconEntry[], text: string, voice = espeakUs) => compileRewrite(entries, voice)(text);

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
    const started = performance.now();
    const apply = compileRewrite(entries, espeakUs);
    const text = 'Name4999 Surname4999 met Name1 Surname1. '.repeat(250);
    const out = apply(text);
    expect(out.startsWith('person 4999 met person 1.')).toBe(true);
    expect(performance.now() - started).toBeLessThan(2000);
  });
});
