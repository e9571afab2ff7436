/**
 * The lexicon is kept as lexicon.json in the data dir, not in the database: it is read whole at
 * start and written whole at each change (at most a few MB), which a JSON file written to a
 * temporary name and renamed does atomically, with no migration to number.
 */
import { readFile, rename, writeFile, chmod } from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import { LexiconEntry } from '../contract';
import { PRIVATE_FILE_MODE } from '../storage/private-files';

export const LEXICON_FILE = 'lexicon.json';

/**
 * The saved entries; a missing file is an empty lexicon. Entries that no longer fit the schema
 * (hand-edited) are dropped and named in `dropped`, never fatal; a file that is not JSON at all
 * is an error, so that the next write does not silently replace it.
 */
export async function readLexiconFile(dataDir: string): Promise<{ entries: LexiconEntry[]; dropped: number }> {
  const file = path.join(dataDir, LEXICON_FILE);
  let raw: string;
  try {
    raw = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], dropped: 0 };
    throw error;
  }
  let saved: unknown;
  try {
    saved = (JSON.parse(raw) as { entries?: unknown } | null)?.entries;
  } catch {
    throw new Error(`The lexicon file ${file} is not JSON. Fix it, or move it aside to start with an empty lexicon.`);
  }
  const list = Array.isArray(saved) ? saved : [];
  const entries = list.filter((entry): entry is LexiconEntry => Value.Check(LexiconEntry, entry));
  return { entries, dropped: list.length - entries.length };
}

export async function writeLexiconFile(dataDir: string, entries: readonly LexiconEntry[]): Promise<void> {
  const file = path.join(dataDir, LEXICON_FILE);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify({ version: 1, entries })}\n`, { mode: PRIVATE_FILE_MODE });
  await chmod(temp, PRIVATE_FILE_MODE);
  await rename(temp, file);
}
