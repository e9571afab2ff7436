/**
 * The W3C Pronunciation Lexicon Specification 1.0 (PLS) as Orator reads and writes it. A PLS
 * document has one language (xml:lang on <lexicon>); each <lexeme> holds graphemes and their
 * <phoneme> and/or <alias>. What PLS has no place for (an entry's voice, case and whole-word
 * rules) travels in attributes of Orator's own namespace, which other PLS readers ignore, so an
 * export read back gives the same entries.
 */
import type { LexiconEntry, LexiconEntryInput, PhonemeAlphabet } from '../contract';
import { entryProblem } from './entry';
import { escapeXml, localName, parseXml, textOf, XmlError, type XmlElement } from './xml';

export const PLS_NAMESPACE = 'http://www.w3.org/2005/01/pronunciation-lexicon';
export const ORATOR_NAMESPACE = 'urn:orator:lexicon';

/** A lexicon file that cannot be read, with where the problem is when known. */
export class LexiconFileError extends Error {
  override name = 'LexiconFileError';
}

const ALPHABETS: readonly string[] = ['x-espeak', 'ipa'] satisfies PhonemeAlphabet[];

export function readPls(source: string): LexiconEntryInput[] {
  let root: XmlElement;
  try {
    root = parseXml(source);
  } catch (error) {
    if (error instanceof XmlError) throw new LexiconFileError(`The PLS file is not well-formed XML: ${error.message}.`);
    throw error;
  }
  if (localName(root.name) !== 'lexicon') throw new LexiconFileError(`The root element is <${root.name}>, not <lexicon>.`);
  const language = root.attributes['xml:lang'];
  if (!language) throw new LexiconFileError('<lexicon> has no xml:lang: PLS requires the language of the lexicon.');
  const prefix = oratorPrefix(root);
  const defaultAlphabet = root.attributes.alphabet;
  const entries: LexiconEntryInput[] = [];
  for (const lexeme of elements(root, 'lexeme')) {
    const at = `the <lexeme> at line ${lexeme.line}`;
    const graphemes = elements(lexeme, 'grapheme').map((g) => textOf(g).trim());
    if (graphemes.length === 0) throw new LexiconFileError(`${at} has no <grapheme>.`);
    const phonemes = elements(lexeme, 'phoneme')
      .map((p) => ({ alphabet: p.attributes.alphabet ?? defaultAlphabet, text: textOf(p).trim() }))
      .filter((p) => p.alphabet !== undefined && ALPHABETS.includes(p.alphabet));
    const alias = elements(lexeme, 'alias').map((a) => textOf(a).trim())[0];
    const phoneme = phonemes[0];
    const flag = (name: string) => (prefix ? lexeme.attributes[`${prefix}:${name}`] : undefined);
    const voice = flag('voice');
    for (const grapheme of graphemes) {
      const entry: LexiconEntryInput = {
        grapheme,
        language,
        ...(alias !== undefined ? { alias } : {}),
        ...(phoneme ? { phoneme: phoneme.text, alphabet: phoneme.alphabet as PhonemeAlphabet } : {}),
        ...(voice !== undefined ? { voice } : {}),
        case_sensitive: flag('case-sensitive') === 'true',
        whole_word: flag('whole-word') !== 'false',
      };
      const problem = entryProblem(entry);
      if (problem) throw new LexiconFileError(`In ${at}: ${problem}.`);
      entries.push(entry);
    }
  }
  return entries;
}

/** The prefix the document binds to Orator's namespace, if any. */
function oratorPrefix(root: XmlElement): string | undefined {
  const binding = Object.entries(root.attributes).find(([name, value]) => name.startsWith('xmlns:') && value === ORATOR_NAMESPACE);
  return binding?.[0].slice('xmlns:'.length);
}

function elements(parent: XmlElement, name: string): XmlElement[] {
  return parent.children.filter((c): c is XmlElement => typeof c !== 'string' && localName(c.name) === name);
}

/** One PLS document of entries of one language. */
export function writePls(entries: readonly LexiconEntry[], language: string): string {
  const lexemes = entries.map((entry) => {
    const attributes = [
      entry.voice !== undefined ? ` orator:voice="${escapeXml(entry.voice)}"` : '',
      entry.case_sensitive ? ' orator:case-sensitive="true"' : '',
      entry.whole_word ? '' : ' orator:whole-word="false"',
    ].join('');
    const lines = [`    <grapheme>${escapeXml(entry.grapheme)}</grapheme>`];
    if (entry.phoneme !== undefined) {
      lines.push(`    <phoneme alphabet="${entry.alphabet ?? 'x-espeak'}">${escapeXml(entry.phoneme)}</phoneme>`);
    }
    if (entry.alias !== undefined) lines.push(`    <alias>${escapeXml(entry.alias)}</alias>`);
    return `  <lexeme${attributes}>\n${lines.join('\n')}\n  </lexeme>\n`;
  });
  return (
    '<?xml version="1.0" encoding="UTF-8"?>\n' +
    `<lexicon version="1.0" xmlns="${PLS_NAMESPACE}" xmlns:orator="${ORATOR_NAMESPACE}"\n` +
    `         alphabet="x-espeak" xml:lang="${escapeXml(language)}">\n` +
    `${lexemes.join('')}</lexicon>\n`
  );
}
