/**
 * The W3C Pronunciation Lexicon Specification 1.0 (PLS) as Orator reads and writes it. A PLS
 * document has one language (xml:lang on <lexicon>); each <lexeme> holds graphemes and their
 * <phoneme> and/or <alias>. What PLS has no place for (an entry's voice, case and whole-word
 * rules) travels in attributes of Orator's own namespace, which other PLS readers ignore, so an
 * export read back gives the same entries.
 *
 * A file is read as a stream (saxes, under the gateway's XML policy in contract/xml.ts: no
 * DOCTYPE, a depth limit): each lexeme becomes entries as it closes, and reading stops at the
 * lexicon's entry limit, or at MAX_PLS_ELEMENTS, whichever comes first; nothing else is kept.
 */
import { LEXICON_LIMITS, type LexiconEntry, type LexiconEntryInput, type PhonemeAlphabet } from '../contract';
import { localName, strictXmlParser } from '../contract/xml';
import { entryProblem } from './entry';
import { checkEntryCount, LexiconFileError, LexiconFileTooLarge } from './file-errors';

export const PLS_NAMESPACE = 'http://www.w3.org/2005/01/pronunciation-lexicon';
export const ORATOR_NAMESPACE = 'urn:orator:lexicon';

/**
 * Elements a PLS file may have: a lexicon of the most entries needs a few per entry (lexeme,
 * grapheme, phoneme, alias). A file of millions of empty elements stops here, at its start.
 */
export const MAX_PLS_ELEMENTS = 10 * LEXICON_LIMITS.entries;

const ALPHABETS: readonly string[] = ['x-espeak', 'ipa'] satisfies PhonemeAlphabet[];

/** A lexeme being read: its line, its attributes, and the text of its graphemes, phonemes and aliases. */
interface Lexeme {
  line: number;
  attributes: Record<string, string>;
  graphemes: string[];
  phonemes: { alphabet: string | undefined; text: string }[];
  aliases: string[];
}

/** Its text is being collected: a grapheme, phoneme or alias of the lexeme. */
interface Part {
  name: string;
  alphabet: string | undefined;
  text: string;
}

export function readPls(source: string, maxEntries: number = LEXICON_LIMITS.entries): LexiconEntryInput[] {
  const entries: LexiconEntryInput[] = [];
  let language = '';
  let defaultAlphabet: string | undefined;
  let prefix: string | undefined;
  let lexeme: Lexeme | undefined;
  let part: Part | undefined;
  let elements = 0;
  let rootSeen = false;
  const fail = (message: string): never => {
    const sentence = message.replace(/\.$/, '');
    throw new LexiconFileError(
      `The PLS file cannot be read at line ${parser.line}, column ${Math.max(1, parser.column)}: ${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`,
    );
  };
  const parser = strictXmlParser({
    open(tag, depth) {
      if (++elements > MAX_PLS_ELEMENTS) {
        throw new LexiconFileTooLarge(
          `The PLS file has more than ${MAX_PLS_ELEMENTS.toLocaleString('en-US')} elements; a full lexicon needs far fewer.`,
        );
      }
      const name = localName(tag.name);
      if (depth === 1) {
        rootSeen = true;
        if (name !== 'lexicon') throw new LexiconFileError(`The root element is <${tag.name}>, not <lexicon>.`);
        language = tag.attributes['xml:lang'] ?? '';
        if (!language) throw new LexiconFileError('<lexicon> has no xml:lang: PLS requires the language of the lexicon.');
        defaultAlphabet = tag.attributes.alphabet;
        prefix = oratorPrefix(tag.attributes);
      } else if (depth === 2 && name === 'lexeme') {
        lexeme = { line: parser.line, attributes: tag.attributes, graphemes: [], phonemes: [], aliases: [] };
      } else if (depth === 3 && lexeme && ['grapheme', 'phoneme', 'alias'].includes(name)) {
        part = { name, alphabet: tag.attributes.alphabet ?? defaultAlphabet, text: '' };
      }
    },
    close(_tag, depth) {
      if (depth === 3 && part && lexeme) {
        const text = part.text.trim();
        if (part.name === 'grapheme') lexeme.graphemes.push(text);
        else if (part.name === 'alias') lexeme.aliases.push(text);
        else lexeme.phonemes.push({ alphabet: part.alphabet, text });
        part = undefined;
      } else if (depth === 2 && lexeme) {
        for (const entry of lexemeEntries(lexeme, language, prefix)) {
          entries.push(entry);
          checkEntryCount(entries.length, maxEntries);
        }
        lexeme = undefined;
      }
    },
    text: (text) => part && (part.text += text),
    cdata: (text) => part && (part.text += text),
    fail,
  });
  parser.write(source).close();
  if (!rootSeen) fail('The file has no root element');
  return entries;
}

function lexemeEntries(lexeme: Lexeme, language: string, prefix: string | undefined): LexiconEntryInput[] {
  const at = `the <lexeme> at line ${lexeme.line}`;
  if (lexeme.graphemes.length === 0) throw new LexiconFileError(`${at} has no <grapheme>.`);
  const phoneme = lexeme.phonemes.find((p) => p.alphabet !== undefined && ALPHABETS.includes(p.alphabet));
  const alias = lexeme.aliases[0];
  const flag = (name: string) => (prefix ? lexeme.attributes[`${prefix}:${name}`] : undefined);
  const voice = flag('voice');
  return lexeme.graphemes.map((grapheme) => {
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
    return entry;
  });
}

/** The prefix the document binds to Orator's namespace, if any. */
function oratorPrefix(attributes: Record<string, string>): string | undefined {
  const binding = Object.entries(attributes).find(([name, value]) => name.startsWith('xmlns:') && value === ORATOR_NAMESPACE);
  return binding?.[0].slice('xmlns:'.length);
}

function escapeXml(text: string): string {
  return text.replace(/[<>&"']/g, (c) => `&${{ '<': 'lt', '>': 'gt', '&': 'amp', '"': 'quot', "'": 'apos' }[c]!};`);
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
