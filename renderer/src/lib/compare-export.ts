/** A compare session (QA) as files: JSON for tools, CSV for a spreadsheet, one row per take. */

export interface ExportedTake {
  /** Its place in the list (1-based) and its letter in a blind run. */
  position: number;
  label: string;
  voice: string;
  voice_name: string;
  engine: string;
  /** 1 to 5 stars; null when not rated. */
  rating: number | null;
  note: string;
  duration_s: number;
  /** Integrated loudness as synthesized (BS.1770); null for silence. */
  loudness_lufs: number | null;
  /** Gain applied for loudness-matched listening (0 when matching was off). */
  gain_db: number;
}

export interface CompareSession {
  exported_at: string;
  text: string;
  settings: { rate: number; pitch: number; volume: number };
  blind: boolean;
  loudness_matched: boolean;
  /** The common loudness the takes were played at; null when not matched. */
  loudness_target_lufs: number | null;
  takes: ExportedTake[];
}

export function sessionJson(session: CompareSession): Blob {
  return new Blob([JSON.stringify(session, null, 2) + '\n'], { type: 'application/json' });
}

const CSV_COLUMNS = [
  'position',
  'label',
  'voice',
  'voice_name',
  'engine',
  'rating',
  'note',
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
      loudness_target_lufs: session.loudness_target_lufs,
      ...session.settings,
      blind: session.blind,
      text: session.text,
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

/** e.g. "orator-compare-2026-11-23-1142.csv" */
export function sessionFileName(extension: 'csv' | 'json', date = new Date()): string {
  return `orator-compare-${date.toISOString().slice(0, 16).replace('T', '-').replace(':', '')}.${extension}`;
}
