import { rm } from 'node:fs/promises';
import path from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ApiError } from '../contract/errors';
import { DEFAULT_OPENAI_VOICES } from '../contract/openai';
import type { SettingName, Settings, SettingsView } from '../contract/settings';
import { API_KEY_FILE, loadOrCreateApiKey } from '../gateway/api-key';
import { configFromArgs, type GatewayConfig } from '../gateway/config';
import { readSavedSettings, writeSavedSettings, type SavedSettings } from './store';

/** Settings that are fields of GatewayConfig, by their config name. */
const CONFIG_FIELDS = {
  host: 'host',
  port: 'port',
  inline_threshold: 'inlineThreshold',
  max_text_length: 'maxTextLength',
  workers: 'workers',
  retention_hours: 'retentionHours',
} as const satisfies Partial<Record<SettingName, keyof GatewayConfig>>;
type ConfigSetting = keyof typeof CONFIG_FIELDS;

/** Defaults of the settings that GatewayConfig does not hold. */
const OTHER_DEFAULTS = {
  models_dir: '',
  engine_executables: {},
  close_to_tray: true,
  openai_voices: { ...DEFAULT_OPENAI_VOICES },
} satisfies Omit<Settings, ConfigSetting>;

/**
 * Applied to the running gateway at once; the rest need a restart (the socket, the worker pool and
 * the engine registry are built once at start). close_to_tray is read by the desktop shell itself,
 * openai_voices by the /v1 endpoint at each request.
 */
const LIVE: ReadonlySet<SettingName> = new Set([
  'inline_threshold',
  'max_text_length',
  'retention_hours',
  'close_to_tray',
  'openai_voices',
]);

function configSettings(config: GatewayConfig): Pick<Settings, ConfigSetting> {
  return Object.fromEntries(Object.entries(CONFIG_FIELDS).map(([name, field]) => [name, config[field]])) as Pick<Settings, ConfigSetting>;
}

/**
 * The config with saved settings laid over it. Flags and environment variables win: a config value
 * that differs from its default was set by one of them. (A flag that repeats the default cannot be
 * told from no flag; then the saved setting wins.)
 */
export function withSavedSettings(config: GatewayConfig, saved: SavedSettings, defaults = configFromArgs([], {})): GatewayConfig {
  const result: GatewayConfig = { ...config };
  for (const [name, field] of Object.entries(CONFIG_FIELDS) as [ConfigSetting, (typeof CONFIG_FIELDS)[ConfigSetting]][]) {
    const value = saved[name];
    if (value !== undefined && config[field] === defaults[field]) (result as unknown as Record<string, unknown>)[field] = value;
  }
  return result;
}

export interface ApiKeyHooks {
  /** The key is fixed by --api-key or ORATOR_API_KEY for this run. */
  locked: boolean;
  /** Told the new key once it is stored, so the gateway checks requests against it at once. */
  onRegenerated(key: string): void;
}

/** The settings as the studio edits them, whatever the transport: persisted, applied live where possible. */
export class SettingsService {
  private readonly running: Settings;
  private readonly defaults: Settings;
  /** The last key regeneration; the next waits for it. */
  private keyReplaced: Promise<unknown> = Promise.resolve();

  private constructor(
    readonly config: GatewayConfig,
    private saved: SavedSettings,
    private readonly hooks: ApiKeyHooks,
    defaults: GatewayConfig,
  ) {
    this.defaults = { ...configSettings(defaults), ...OTHER_DEFAULTS };
    this.running = { ...this.defaults, ...saved, ...configSettings(config) };
  }

  /** Reads settings.json from the config's data dir; `config` of the result is the config to run with. */
  static open(config: GatewayConfig, hooks: ApiKeyHooks, defaults = configFromArgs([], {})): SettingsService {
    const saved = readSavedSettings(config.dataDir);
    return new SettingsService(withSavedSettings(config, saved, defaults), saved, hooks, defaults);
  }

  current(): Settings {
    const live = Object.entries(configSettings(this.config)).filter(([name]) => LIVE.has(name as SettingName));
    return { ...this.running, ...this.saved, ...Object.fromEntries(live) };
  }

  view(): SettingsView {
    const current = this.current();
    const names = Object.keys(current) as SettingName[];
    return {
      settings: current,
      restart_required: names.filter((name) => !LIVE.has(name) && !isDeepStrictEqual(current[name], this.running[name])),
      api_key_locked: this.hooks.locked,
    };
  }

  /** Saves all settings (only those that differ from the defaults are written) and applies the live ones. */
  async update(next: Settings): Promise<SettingsView> {
    const saved = Object.fromEntries(
      (Object.keys(next) as SettingName[])
        .filter((name) => !isDeepStrictEqual(next[name], this.defaults[name]))
        .map((name) => [name, next[name]]),
    ) as SavedSettings;
    await writeSavedSettings(this.config.dataDir, saved);
    this.saved = saved;
    this.config.inlineThreshold = next.inline_threshold;
    this.config.maxTextLength = next.max_text_length;
    this.config.retentionHours = next.retention_hours;
    return this.view();
  }

  /** A new random key replaces the stored one; the old key stops working at once. */
  async regenerateApiKey(): Promise<string> {
    if (this.hooks.locked) {
      throw new ApiError('invalid_request', 'The API key is set by --api-key or ORATOR_API_KEY for this run; change it there.');
    }
    // One at a time: interleaved, one request's rm removes the file another is still setting up.
    const replaced = this.keyReplaced.then(async () => {
      // loadOrCreateApiKey makes the key (random, 0600) when there is none; one way to make keys.
      await rm(path.join(this.config.dataDir, API_KEY_FILE), { force: true });
      const { key } = await loadOrCreateApiKey(this.config.dataDir);
      this.hooks.onRegenerated(key);
      return key;
    });
    this.keyReplaced = replaced.catch(() => undefined);
    return replaced;
  }
}
