import type { SettingName, SettingOrigin, Settings } from '../contract/settings';
import type { SetBy } from './given';
import type { SavedSettings } from './store';
import { configName, SETTING_NAMES, settingRow } from './table';

/** Where a value came from; whether it may be changed follows from it and the table. */
export type Origin = Omit<SettingOrigin, 'editable'>;
export type Origins = Record<SettingName, Origin>;

export interface ResolvedSettings {
  settings: Settings;
  origins: Origins;
}

/**
 * Each setting's value and where it came from: a flag, else its environment variable, else
 * settings.json (unless the table says only whoever starts Orator sets it: the bind address), else
 * the table's default. `given` holds what flags and variables (or a start
 * option set in code, which counts as a flag: whoever starts the gateway chose it) gave for this
 * run, `givenBy` which of them gave it. Nothing is compared with a default, so a flag that repeats
 * the default still wins over a saved value.
 */
export function resolveSettings(
  given: Partial<Settings>,
  givenBy: Partial<Record<SettingName, SetBy>>,
  saved: SavedSettings,
): ResolvedSettings {
  const settings: Record<string, unknown> = {};
  const origins: Partial<Origins> = {};
  for (const name of SETTING_NAMES) {
    if (given[name] !== undefined) {
      const by = givenBy[name] ?? { source: 'flag', name: settingRow(name).flag ?? configName(name) };
      settings[name] = given[name];
      origins[name] = { source: by.source, set_by: by.name };
    } else if (saved[name] !== undefined && settingRow(name).editable) {
      settings[name] = saved[name];
      origins[name] = { source: 'saved' };
    } else {
      settings[name] = settingRow(name).default();
      origins[name] = { source: 'default' };
    }
  }
  return { settings: settings as Settings, origins: origins as Origins };
}

/** Set by a flag or variable for this run: shown, never changed over HTTP or IPC. */
export function fixedFor(origin: Origin): boolean {
  return origin.source === 'flag' || origin.source === 'env';
}
