import { readFileSync } from 'node:fs';
import { chmod, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import { Settings, type SettingName } from '../contract/settings';

export const SETTINGS_FILE = 'settings.json';

/** What settings.json holds: only what the person saved, so new defaults still reach everyone else. */
export type SavedSettings = Partial<Settings>;

export function settingsFile(dataDir: string): string {
  return path.join(dataDir, SETTINGS_FILE);
}

/**
 * Reads settings.json. Synchronous because the desktop shell asks it inside a window "close" event,
 * which must be answered before the event returns. A missing file is no settings; a value that no
 * longer fits the schema (hand-edited, or from another version) is dropped, never fatal.
 */
export function readSavedSettings(dataDir: string): SavedSettings {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(settingsFile(dataDir), 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || error instanceof SyntaxError) return {};
    throw error;
  }
  if (typeof raw !== 'object' || raw === null) return {};
  const saved: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(raw)) {
    const schema = Settings.properties[name as SettingName];
    if (schema && Value.Check(schema, value)) saved[name] = value;
  }
  return saved as SavedSettings;
}

/** Writes to a temporary name and renames, so a crash never leaves half a file; 0600 like the key. */
export async function writeSavedSettings(dataDir: string, settings: SavedSettings): Promise<void> {
  const file = settingsFile(dataDir);
  const temp = `${file}.${process.pid}.tmp`;
  await writeFile(temp, `${JSON.stringify(settings, null, 2)}\n`, { mode: 0o600 });
  await chmod(temp, 0o600);
  await rename(temp, file);
}
