/** A compare session (QA) as files: JSON for tools, CSV for a spreadsheet (one row per take), a ZIP of its takes. */

export interface ExportedTake {
  /** Its place in its text's list (1-based) and its name there: a letter in a blind session. */
  position: number;
  label: string;
  /** Which text of the session it speaks (1-based). */
  text_index: number;
  voice: string;
  voice_name: string;
  engine: string;
  /** 1 to 5 stars; null when not rated. */
  rating: number | null;
  note: string;
  /** Stars per sentence (null: not rated). */
  sentence_ratings: (number | null)[];
  /** Its place in the pairwise ranking of its text (1 best); null without a finished round. */
  pairwise_rank: number | null;
  duration_s: number;
  /** Integrated loudness as synthesized (BS.1770); null for silence. */
  loudness_lufs: number | null;
  /** Gain applied for loudness-matched listening (0 when matching was off). */
  gain_db: number;
}

export interface CompareSession {
  name: string;
  exported_at: string;
  texts: string[];
  settings: { rate: number; pitch: number; volume: number };
  blind: boolean;
  loudness_matched: boolean;
  /** The common loudness of the first text's takes; null when not matched. */
  loudness_target_lufs: number | null;
  takes: ExportedTake[];
}

export function sessionJson(session: CompareSession): Blob {
  return new Blob([JSON.stringify(session, null, 2) + '\n'], { type: 'application/json' });
}

const CSV_COLUMNS = [
  'session',
  'text_index',
  'position',
  'label',
  'voice',
  'voice_name',
  'engine',
  'rating',
  'note',
  'sentence_ratings',
  'pairwise_rank',
  'duration_s',
  'loudness_lufs',
  'gain_db',
  'loudness_target_lufs',
  'rate',
  'pitch',
  'volume',
  'blind',
  'text',
] as const;

/** RFC 4180, with the session's settings on every row so that each row stands alone. */
export function sessionCsv(session: CompareSession): Blob {
  const rows = session.takes.map((take) => {
    const row: Record<(typeof CSV_COLUMNS)[number], string | number | boolean | null> = {
      ...take,
      session: session.name,
      sentence_ratings: take.sentence_ratings.map((r) => r ?? '').join(';'),
      loudness_target_lufs: session.loudness_target_lufs,
      ...session.settings,
      blind: session.blind,
      text: session.texts[take.text_index - 1] ?? '',
    };
    return CSV_COLUMNS.map((column) => csvField(row[column])).join(',');
  });
  return new Blob([[CSV_COLUMNS.join(','), ...rows].join('\r\n') + '\r\n'], { type: 'text/csv' });
}

/**
 * Quoted when it holds a comma, quote or line break; text a spreadsheet would run as a formula
 * (a note starting with = + - @) gets a leading apostrophe. Numbers are written as they are.
 */
export function csvField(value: string | number | boolean | null): string {
  if (value === null) return '';
  if (typeof value !== 'string') return String(value);
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

/** A name safe in a file name: letters, digits and dashes. */
export const fileSlug = (name: string) =>
  name
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/gi, '-')
    // runs are one dash by now: one at either end at most
    .replace(/^-|-$/g, '')
    .toLowerCase()
    .slice(0, 60) || 'session';

/** e.g. "orator-compare-narrators-2026-11-23-114207.csv": the session's name and the time to the second. */
export function sessionFileName(name: string, extension: 'csv' | 'json' | 'zip', date = new Date()): string {
  const stamp = date.toISOString().slice(0, 19).replace('T', '-').replace(/:/g, '');
  return `orator-compare-${fileSlug(name)}-${stamp}.${extension}`;
}

/** A take's file: the session and the take's name (its letter while blind), e.g. "narrators-take-b.wav". */
export const takeFileName = (session: { name: string }, label: string) => `${fileSlug(session.name)}-${fileSlug(label)}.wav`;
