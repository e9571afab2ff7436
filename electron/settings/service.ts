import { rm } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../contract/errors';
import type { SettingName, Settings, SettingsUpdate, SettingsView } from '../contract/settings';
import { API_KEY_FILE, loadOrCreateSecret } from '../storage/credentials';
import { writeSavedSettings, type SavedSettings } from './store';

/** The limits that settings change while the gateway runs; synthesis and jobs ask for them at each use. */
export interface LiveLimits {
  inlineThreshold: number;
  maxTextLength: number;
  retentionHours: number;
}

/**
 * Applied to the running gateway at once; the rest need a restart (the socket, the worker pool and
 * the engine registry are built once at start). close_to_tray is read by the desktop shell itself,
 * openai_voices by the /v1 endpoint at each request, voice_catalog_url by the voice library at its next refresh.
 */
const LIVE: ReadonlySet<SettingName> = new Set([
  'inline_threshold',
  'max_text_length',
  'retention_hours',
  'close_to_tray',
  'openai_voices',
  'voice_catalog_url',
]);

/** Checks a setting that names a program or a folder before it is saved; each throws an ApiError saying why not. */
export interface PathVetting {
  program(engineId: string, file: string): Promise<void>;
  modelsDir(dir: string): Promise<void>;
}

export interface ApiKeyHooks {
  /** The key is fixed by --api-key or ORATOR_API_KEY for this run. */
  locked: boolean;
  /** Told the new key once it is stored, so the gateway checks requests against it at once. */
  onRegenerated(key: string): void;
}

export interface SettingsServiceOptions {
  dataDir: string;
  /** What the gateway runs with: flags and environment variables over saved settings over defaults. */
  running: Settings;
  defaults: Settings;
  /** settings.json as read at start. */
  saved: SavedSettings;
  apiKey: ApiKeyHooks;
  vet: PathVetting;
}

/** The settings as the studio edits them, whatever the transport: persisted, applied live where possible. */
export class SettingsService {
  /** The settings last chosen: saved ones, and the running values of the rest. */
  private chosen: Settings;
  /** The last key regeneration; the next waits for it. */
  private keyReplaced: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SettingsServiceOptions) {
    const { running, saved } = options;
    // A live setting given by flag applies over the saved one; the rest show what the next start uses.
    const savedForRestart = Object.entries(saved).filter(([name]) => !LIVE.has(name as SettingName));
    this.chosen = { ...running, ...Object.fromEntries(savedForRestart) };
  }

  current(): Settings {
    return this.chosen;
  }

  /** The limits in force now, for the services that enforce them. */
  limits(): LiveLimits {
    const { inline_threshold, max_text_length, retention_hours } = this.chosen;
    return { inlineThreshold: inline_threshold, maxTextLength: max_text_length, retentionHours: retention_hours };
  }

  view(): SettingsView {
    const { running } = this.options;
    const names = Object.keys(this.chosen) as SettingName[];
    return {
      settings: this.chosen,
      restart_required: names.filter((name) => !LIVE.has(name) && !isDeepStrictEqual(this.chosen[name], running[name])),
      api_key_locked: this.options.apiKey.locked,
    };
  }

  /**
   * Saves all settings (only those that differ from the defaults are written) and applies the live
   * ones. The bind address is not among them: only whoever starts the gateway chooses it (--host).
   * Programs and folders are vetted first: a setting Orator would refuse to use is never saved.
   */
  async update(update: SettingsUpdate): Promise<SettingsView> {
    const next: Settings = { ...update, host: this.chosen.host };
    await this.vet(next);
    const saved = Object.fromEntries(
      (Object.keys(next) as SettingName[])
        .filter((name) => !isDeepStrictEqual(next[name], this.options.defaults[name]))
        .map((name) => [name, next[name]]),
    ) as SavedSettings;
    await writeSavedSettings(this.options.dataDir, saved);
    this.chosen = next;
    return this.view();
  }

  private async vet(next: Settings): Promise<void> {
    for (const [engineId, file] of Object.entries(next.engine_executables)) await this.options.vet.program(engineId, file);
    if (next.models_dir) await this.options.vet.modelsDir(next.models_dir);
  }

  /** A new random key replaces the stored one; the old key stops working at once. */
  async regenerateApiKey(): Promise<string> {
    if (this.options.apiKey.locked) {
      throw new ApiError('invalid_request', 'The API key is set by --api-key or ORATOR_API_KEY for this run; change it there.');
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
