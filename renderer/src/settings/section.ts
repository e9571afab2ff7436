import type { SettingName, Settings } from '../api/contract';

/** What each part of the settings form reads and changes. */
export interface SectionProps {
  /** Nothing here can save (no admin token, no desktop app): every field is disabled. */
  readOnly: boolean;
  draft: Settings;
  set<K extends SettingName>(name: K, value: Settings[K]): void;
  /** Saved, but waits for a restart. */
  pending(name: SettingName): boolean;
  /** The flag or environment variable that set it for this run, when it cannot be changed here. */
  lockedBy(name: SettingName): string | undefined;
}
