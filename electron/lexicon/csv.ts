/**
 * Lexicon entries as CSV (RFC 4180: comma-separated, double quotes around fields that hold commas,
 * quotes or line breaks). The first row names the columns; only "grapheme" is required, and
 * "language" may be left to the import's default. Columns: see CSV_COLUMNS.
 */
import type { LexiconEntry, LexiconEntryInput } from '../contract';
import { entryProblem } from './entry';
import { LexiconFileError } from './pls';

export const CSV_COLUMNS = ['grapheme', 'alias', 'phoneme', 'alphabet', 'language', 'voice', 'case_sensitive', 'whole_word'] as const;
type Column = (typeof CSV_COLUMNS)[number];

/** Rows of fields, each with the line it starts on. */
function parseRows(source: string): { fields: string[]; line: number }[] {
  const rows: { fields: string[]; line: number }[] = [];
  let fields: string[] = [];
  let field = '';
  let line = 1;
  let rowLine = 1;
  let i = source.charCodeAt(0) === 0xfeff ? 1 : 0;
  const endRow = () => {
    fields.push(field);
    if (fields.length > 1 || fields[0] !== '') rows.push({ fields, line: rowLine });
    fields = [];
    field = '';
  };
  while (i < source.length) {
    const char = source[i]!;
    if (char === '"' && field === '') {
      const start = line;
      i++;
      for (;;) {
        if (i >= source.length) throw new LexiconFileError(`CSV line ${start}: a quoted field is not closed.`);
        if (source[i] === '"') {
          if (source[i + 1] !== '"') break;
          i++;
        }
        if (source[i] === '\n') line++;
        field += source[i++];
      }
      i++;
      const next = source[i];
      if (next !== undefined && next !== ',' && next !== '\n' && next !== '\r') {
        throw new LexiconFileError(`CSV line ${line}: text after a closing quote; double a quote inside a quoted field.`);
      }
      continue;
    }
    if (char === ',') {
      fields.push(field);
      field = '';
    } else if (char === '\n' || char === '\r') {
      if (char === '\r' && source[i + 1] === '\n') i++;
      endRow();
      line++;
      rowLine = line;
    } else {
      if (char === '"')
        throw new LexiconFileError(`CSV line ${line}: a quote inside an unquoted field; quote the field and double the quote.`);
      field += char;
    }
    i++;
  }
  if (field !== '' || fields.length > 0) endRow();
  return rows;
}

export function readCsv(source: string, defaultLanguage: string | undefined): LexiconEntryInput[] {
  const [header, ...rows] = parseRows(source);
  if (!header) throw new LexiconFileError('The CSV file is empty; its first row names the columns (grapheme, alias, phoneme, …).');
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  const unknown = columns.find((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown !== undefined) throw new LexiconFileError(`CSV column "${unknown}" is unknown; the columns are ${CSV_COLUMNS.join(', ')}.`);
  if (!columns.includes('grapheme')) throw new LexiconFileError('The CSV file has no "grapheme" column.');
  return rows.map(({ fields, line }) => {
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
    return entry as LexiconEntryInput;
  });
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
