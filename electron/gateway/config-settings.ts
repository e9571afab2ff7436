import { isDeepStrictEqual } from 'node:util';
import { DEFAULT_OPENAI_VOICES } from '../contract/openai';
import type { SettingName, Settings } from '../contract/settings';
import type { SavedSettings } from '../settings/store';
import { configFromArgs, type GatewayConfig } from './config';

/** Settings that are fields of GatewayConfig, by their config name. */
const CONFIG_FIELDS = {
  host: 'host',
  port: 'port',
  inline_threshold: 'inlineThreshold',
  max_text_length: 'maxTextLength',
  workers: 'workers',
  retention_hours: 'retentionHours',
  models_dir: 'modelsDir',
  engine_executables: 'engineExecutables',
} as const satisfies Partial<Record<SettingName, keyof GatewayConfig>>;
type ConfigSetting = keyof typeof CONFIG_FIELDS;

/** Defaults of the settings that GatewayConfig does not hold (the desktop shell and the /v1 routes read them themselves). */
const OTHER_DEFAULTS = { voice_catalog_url: '', close_to_tray: true, openai_voices: { ...DEFAULT_OPENAI_VOICES } } satisfies Omit<
  Settings,
  ConfigSetting
>;

const configEntries = Object.entries(CONFIG_FIELDS) as [ConfigSetting, (typeof CONFIG_FIELDS)[ConfigSetting]][];

/** The settings a config runs with, saved ones filling in what the config does not hold. */
export function settingsOf(config: GatewayConfig, saved: SavedSettings = {}): Settings {
  return { ...OTHER_DEFAULTS, ...saved, ...Object.fromEntries(configEntries.map(([name, field]) => [name, config[field]])) } as Settings;
}

/**
 * The config with saved settings laid over it. Flags and environment variables win: a config value
 * that differs from its default was set by one of them. (A flag that repeats the default cannot be
 * told from no flag; then the saved setting wins.)
 */
export function withSavedSettings(config: GatewayConfig, saved: SavedSettings, defaults = configFromArgs([], {})): GatewayConfig {
  const result: GatewayConfig = { ...config };
  for (const [name, field] of configEntries) {
    const value = saved[name];
    if (value !== undefined && isDeepStrictEqual(config[field], defaults[field]))
      (result as unknown as Record<string, unknown>)[field] = value;
  }
  return result;
}
