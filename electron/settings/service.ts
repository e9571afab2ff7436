import { rm } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../contract/errors';
import type { SettingName, Settings, SettingsUpdate, SettingsView } from '../contract/settings';
import { API_KEY_FILE, loadOrCreateSecret } from '../storage/credentials';
import { fixedFor, type Origins, type ResolvedSettings } from './resolve';
import { writeSavedSettings, type SavedSettings } from './store';
import { SETTING_NAMES, settingRow } from './table';

/** The limits that settings change while the gateway runs; synthesis and jobs ask for them at each use. */
export interface LiveLimits {
  inlineThreshold: number;
  maxTextLength: number;
  retentionHours: number;
}

/** Checks a setting that names a program or a folder before it is saved; each throws an ApiError saying why not. */
export interface PathVetting {
  program(engineId: string, file: string): Promise<void>;
  modelsDir(dir: string): Promise<void>;
}

export interface ApiKeyHooks {
  /** Where the key was given for this run (`--api-key-file <file>`, `ORATOR_API_KEY`…); absent: the stored key, which may be replaced. */
  fixedBy?: string | undefined;
  /** Told the new key once it is stored, so the gateway checks requests against it at once. */
  onRegenerated(key: string): void;
}

export interface SettingsServiceOptions {
  dataDir: string;
  /** What the gateway runs with, and where each value came from (resolveSettings). */
  running: ResolvedSettings;
  /** settings.json as read at start. */
  saved: SavedSettings;
  apiKey: ApiKeyHooks;
  vet: PathVetting;
}

/**
 * The settings as the studio edits them, whatever the transport: persisted, applied live where the
 * table says so (settings/table.ts), and never changed where a flag or variable set them for this run.
 */
export class SettingsService {
  /** The settings last chosen: what runs, with saved changes that wait for a restart. */
  private chosen: Settings;
  private origins: Origins;
  /** What settings.json holds. */
  private saved: SavedSettings;
  /** The last key regeneration; the next waits for it. */
  private keyReplaced: Promise<unknown> = Promise.resolve();
  /** What applies a live setting at once rather than at its next use (the export cache's bound). */
  private readonly appliers: ((settings: Settings) => Promise<void>)[] = [];

  constructor(private readonly options: SettingsServiceOptions) {
    this.chosen = options.running.settings;
    this.origins = options.running.origins;
    this.saved = options.saved;
  }

  current(): Settings {
    return this.chosen;
  }

  /** `apply` runs after each update, with the settings chosen: for a live setting that acts when it changes. */
  onUpdate(apply: (settings: Settings) => Promise<void>): void {
    this.appliers.push(apply);
  }

  /** The limits in force now, for the services that enforce them. */
  limits(): LiveLimits {
    const { inline_threshold, max_text_length, retention_hours } = this.chosen;
    return { inlineThreshold: inline_threshold, maxTextLength: max_text_length, retentionHours: retention_hours };
  }

  view(): SettingsView {
    const running = this.options.running.settings;
    const sources = Object.fromEntries(
      SETTING_NAMES.map((name) => [name, { ...this.origins[name], editable: this.editable(name) }]),
    ) as SettingsView['sources'];
    return {
      settings: this.chosen,
      sources,
      restart_required: SETTING_NAMES.filter(
        (name) => settingRow(name).applies === 'restart' && !isDeepStrictEqual(this.chosen[name], running[name]),
      ),
      api_key_locked: this.options.apiKey.fixedBy !== undefined,
    };
  }

  /**
   * Refuses an update that changes a setting this run does not let it change (409 setting_locked,
   * naming the flag or variable); the desktop app calls it before it asks the person anything.
   */
  refuseLocked(update: SettingsUpdate): void {
    const locked = (Object.keys(update) as (keyof SettingsUpdate)[]).filter(
      (name) => !this.editable(name) && !isDeepStrictEqual(update[name], this.chosen[name]),
    );
    if (locked.length === 0) return;
    const reasons = locked.map((name) => `${name} is set by ${this.setBy(name)}`);
    throw new ApiError(
      'setting_locked',
      `Not saved: ${reasons.join('; ')} for this run, so ${locked.length === 1 ? 'it' : 'they'} cannot be changed here. Change ${locked.length === 1 ? 'it' : 'them'} where Orator is started.`,
    );
  }

  /**
   * Saves all settings (only those that differ from the defaults are written; a saved value of a
   * setting fixed for this run is kept for the runs without the flag) and applies the live ones.
   * Programs and folders are vetted first: a setting Orator would refuse to use is never saved.
   */
  async update(update: SettingsUpdate): Promise<SettingsView> {
    this.refuseLocked(update);
    const next: Settings = { ...update, host: this.chosen.host };
    await this.vet(next);
    const saved: Record<string, unknown> = {};
    for (const name of SETTING_NAMES) {
      if (fixedFor(this.origins[name])) {
        if (this.saved[name] !== undefined) saved[name] = this.saved[name];
      } else if (!isDeepStrictEqual(next[name], settingRow(name).default())) saved[name] = next[name];
    }
    await writeSavedSettings(this.options.dataDir, saved);
    this.saved = saved;
    this.chosen = next;
    this.origins = Object.fromEntries(
      SETTING_NAMES.map((name) => {
        const kept = fixedFor(this.origins[name]) ? this.origins[name] : { source: name in saved ? 'saved' : 'default' };
        return [name, kept];
      }),
    ) as Origins;
    for (const apply of this.appliers) await apply(next);
    return this.view();
  }

  private editable(name: SettingName): boolean {
    return settingRow(name).editable && !fixedFor(this.origins[name]);
  }

  /** What sets a setting that cannot be changed here: the flag or variable of this run, or where Orator is started. */
  private setBy(name: SettingName): string {
    const { set_by } = this.origins[name];
    if (set_by) return set_by;
    const { flag, env } = settingRow(name);
    return [flag, env].filter(Boolean).join(' or ');
  }

  /** Programs and folders that a flag or variable gave were vetted where they are used (at each probe). */
  private async vet(next: Settings): Promise<void> {
    if (!fixedFor(this.origins.engine_executables)) {
      for (const [engineId, file] of Object.entries(next.engine_executables)) await this.options.vet.program(engineId, file);
    }
    if (next.models_dir && !fixedFor(this.origins.models_dir)) await this.options.vet.modelsDir(next.models_dir);
  }

  /** A new random key replaces the stored one; the old key stops working at once. */
  async regenerateApiKey(): Promise<string> {
    const { fixedBy } = this.options.apiKey;
    if (fixedBy !== undefined) {
      throw new ApiError(
        'setting_locked',
        `Not replaced: the API key is set by ${fixedBy} for this run, so it cannot be changed here. Change it where Orator is started.`,
      );
    }
    const { dataDir } = this.options;
    // One at a time: interleaved, one request's rm removes the file another is still setting up.
    const replaced = this.keyReplaced.then(async () => {
      // loadOrCreateSecret makes the key (random, 0600) when there is none; one way to make keys.
      await rm(path.join(dataDir, API_KEY_FILE), { force: true });
      const { value } = await loadOrCreateSecret(dataDir, API_KEY_FILE);
      this.options.apiKey.onRegenerated(value);
      return value;
    });
    this.keyReplaced = replaced.catch(() => undefined);
    return replaced;
  }
}
