/**
 * Lexicon entries as CSV (RFC 4180: comma-separated, double quotes around fields that hold commas,
 * quotes or line breaks). The first row names the columns; only "grapheme" is required, and
 * "language" may be left to the import's default. Columns: see CSV_COLUMNS.
 */
import { LEXICON_LIMITS, type LexiconEntry, type LexiconEntryInput } from '../contract';
import { entryProblem } from './entry';
import { checkEntryCount, LexiconFileError } from './file-errors';

export const CSV_COLUMNS = ['grapheme', 'alias', 'phoneme', 'alphabet', 'language', 'voice', 'case_sensitive', 'whole_word'] as const;
type Column = (typeof CSV_COLUMNS)[number];

/**
 * The rows of fields, each with the line it starts on, one at a time: a reader that stops early
 * reads no further. Each character is looked at once; fields are cut out of the source whole
 * (a field built character by character costs a string node per character: a 23.5 MB file took
 * 2.6 GB so).
 */
function* csvRows(source: string): Generator<{ fields: string[]; line: number }> {
  const unquoted = /[^,\r\n"]*/y;
  let at = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  let line = 1;
  while (at < source.length) {
    const rowLine = line;
    const fields: string[] = [];
    for (;;) {
      if (source[at] === '"') {
        const end = closingQuote(source, at + 1);
        if (end < 0) throw new LexiconFileError(`CSV line ${line}: a quoted field is not closed.`);
        const field = source.slice(at + 1, end);
        fields.push(field.replaceAll('""', '"'));
        line += newlines(field);
        at = end + 1;
        const next = source[at];
        if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
          throw new LexiconFileError(`CSV line ${line}: text after a closing quote; double a quote inside a quoted field.`);
        }
      } else {
        unquoted.lastIndex = at;
        const field = unquoted.exec(source)![0];
        at += field.length;
        if (source[at] === '"') {
          throw new LexiconFileError(`CSV line ${line}: a quote inside an unquoted field; quote the field and double the quote.`);
        }
        fields.push(field);
      }
      if (source[at] !== ',') break;
      at++;
    }
    // the row ends at "\r\n", "\n", "\r" or the end
    if (source[at] === '\r') at++;
    if (source[at] === '\n') at++;
    line++;
    if (fields.length > 1 || fields[0] !== '') yield { fields, line: rowLine };
  }
}

/** Where the quoted field starting at `from` ends (its closing quote), or -1; a doubled quote is a quote. */
function closingQuote(source: string, from: number): number {
  for (let at = source.indexOf('"', from); at >= 0; at = source.indexOf('"', at + 2)) {
    if (source[at + 1] !== '"') return at;
  }
  return -1;
}

function newlines(text: string): number {
  let count = 0;
  for (let at = text.indexOf('\n'); at >= 0; at = text.indexOf('\n', at + 1)) count++;
  return count;
}

/** The entries of a CSV file, read row by row and stopped at `maxEntries`. */
export function readCsv(
  source: string,
  defaultLanguage: string | undefined,
  maxEntries: number = LEXICON_LIMITS.entries,
): LexiconEntryInput[] {
  const rows = csvRows(source);
  const first = rows.next();
  const header = first.done ? undefined : first.value;
  if (!header) throw new LexiconFileError('The CSV file is empty; its first row names the columns (grapheme, alias, phoneme, …).');
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  const unknown = columns.find((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown !== undefined) throw new LexiconFileError(`CSV column "${unknown}" is unknown; the columns are ${CSV_COLUMNS.join(', ')}.`);
  if (!columns.includes('grapheme')) throw new LexiconFileError('The CSV file has no "grapheme" column.');
  const entries: LexiconEntryInput[] = [];
  for (const { fields, line } of rows) {
    checkEntryCount(entries.length + 1, maxEntries);
    if (fields.length !== columns.length) {
      throw new LexiconFileError(`CSV line ${line} has ${fields.length} fields; the header has ${columns.length}.`);
    }
    const value = (column: Column) => {
      const index = columns.indexOf(column);
      const text = index < 0 ? '' : fields[index]!.trim();
      return text === '' ? undefined : text;
    };
    const language = value('language') ?? defaultLanguage;
    if (language === undefined) throw new LexiconFileError(`CSV line ${line} has no language; add the column or pass ?language=.`);
    const entry: Record<string, unknown> = { grapheme: value('grapheme') ?? '', language };
    for (const column of ['alias', 'phoneme', 'alphabet', 'voice'] as const) {
      const text = value(column);
      if (text !== undefined) entry[column] = text;
    }
    for (const column of ['case_sensitive', 'whole_word'] as const) {
      const text = value(column)?.toLowerCase();
      if (text === undefined) continue;
      if (text !== 'true' && text !== 'false') throw new LexiconFileError(`CSV line ${line}: "${column}" must be true or false.`);
      entry[column] = text === 'true';
    }
    const problem = entryProblem(entry);
    if (problem) throw new LexiconFileError(`CSV line ${line}: ${problem}.`);
    entries.push(entry as LexiconEntryInput);
  }
  return entries;
}

export function writeCsv(entries: readonly LexiconEntry[]): string {
  const rows = entries.map((entry) =>
    CSV_COLUMNS.map((column) => {
      const value = entry[column];
      return value === undefined ? '' : quoted(String(value));
    }).join(','),
  );
  return `${[CSV_COLUMNS.join(','), ...rows].join('\r\n')}\r\n`;
}

function quoted(field: string): string {
  return /[",\r\n]/.test(field) || field !== field.trim() ? `"${field.replaceAll('"', '""')}"` : field;
}
