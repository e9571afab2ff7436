import os from 'node:os';
import { DEFAULT_OPENAI_VOICES } from '../contract/openai';
import { SETTING_BOUNDS, Settings, type SettingName } from '../contract/settings';
import { DEFAULT_INLINE_THRESHOLD } from '../contract/synthesis';
import { absolute, engineExecutable } from './text-values';

/**
 * How a change reaches the running gateway: `live` at its next use (the services ask for the value
 * each time), `restart` at the next start (the socket, the worker pool and the engines are built once).
 */
export type Applies = 'live' | 'restart';

/** One setting: where its value may come from, and who may change it. Its shape is the contract's (`Settings`). */
export interface SettingRow<V> {
  /** The value when no flag, environment variable or saved setting gives one. */
  default: () => V;
  /** The flag of `npm run serve` (and `npm start --`) that sets it for one run; a flag wins over everything. */
  flag?: `--${string}`;
  /** The environment variable that sets it for one run (the desktop app reads no flags); below a flag. */
  env?: `ORATOR_${string}`;
  /** The flag may be given more than once (then `read` gets every value). */
  repeatable?: true;
  /** Text to value, where the schema's type does not say how (paths, lists); throws naming `option`. */
  read?: (given: string[], option: string) => V;
  /** PUT /settings and the desktop app may change it, unless a flag or variable set it for this run. */
  editable: boolean;
  applies: Applies;
}

/**
 * Every setting, once. A setting's type and bounds are its schema in contract/settings.ts; the rest
 * is here: `configFromArgs` reads the flags and variables of this table, `resolveSettings` lays
 * them over settings.json and the defaults, and `SettingsService` refuses what a flag or variable fixed.
 */
export const SETTINGS_TABLE: { readonly [N in SettingName]: SettingRow<Settings[N]> } = {
  host: { default: () => '127.0.0.1', flag: '--host', env: 'ORATOR_HOST', editable: false, applies: 'restart' },
  port: { default: () => 5700, flag: '--port', env: 'ORATOR_PORT', editable: true, applies: 'restart' },
  inline_threshold: { default: () => DEFAULT_INLINE_THRESHOLD, flag: '--inline-threshold', editable: true, applies: 'live' },
  max_text_length: { default: () => 2_000_000, flag: '--max-text-length', editable: true, applies: 'live' },
  workers: {
    // one per core: threads beyond the cores only make chunks wait for each other
    default: () => Math.min(os.availableParallelism(), SETTING_BOUNDS.workers.maximum),
    flag: '--workers',
    editable: true,
    applies: 'restart',
  },
  retention_hours: { default: () => 0, flag: '--retention-hours', editable: true, applies: 'live' },
  // given to the engines when they are built
  engine_timeout_s: { default: () => 120, flag: '--engine-timeout', editable: true, applies: 'restart' },
  // about 27 hours of 22.05 kHz speech: a long book's sentences, with room for its next version; bound anew at each change
  render_cache_mb: { default: () => 4096, flag: '--render-cache-mb', editable: true, applies: 'live' },
  // a 15-hour book's frames at 128 kb/s (864 MB), or two versions of it at 64 kb/s; bound anew at each change
  export_cache_mb: { default: () => 1024, flag: '--export-cache-mb', editable: true, applies: 'live' },
  models_dir: {
    default: () => '',
    flag: '--models-dir',
    read: ([dir], option) => absolute(option, dir!),
    editable: true,
    applies: 'restart',
  },
  engine_executables: {
    default: () => ({}),
    flag: '--engine-executable',
    repeatable: true,
    read: (given, option) => Object.fromEntries(given.map((entry) => engineExecutable(entry, option))),
    editable: true,
    applies: 'restart',
  },
  // read by the voice library at its next refresh
  voice_catalog_url: { default: () => '', editable: true, applies: 'live' },
  // read by the desktop shell at each close of the window
  close_to_tray: { default: () => true, editable: true, applies: 'live' },
  // read by the voice resolver at each request
  openai_voices: { default: () => ({ ...DEFAULT_OPENAI_VOICES }), editable: true, applies: 'live' },
};

export const SETTING_NAMES = Object.keys(Settings.properties) as SettingName[];

export function settingRow<N extends SettingName>(name: N): SettingRow<Settings[N]> {
  return SETTINGS_TABLE[name] as SettingRow<Settings[N]>;
}

export function defaultSettings(): Settings {
  return Object.fromEntries(SETTING_NAMES.map((name) => [name, settingRow(name).default()])) as Settings;
}

/** `inline_threshold` → `inlineThreshold`: a setting's name in the gateway's start options (GatewayConfig). */
type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** The settings as start options, e.g. `{ inlineThreshold: 5 }` from a test or `--inline-threshold 5`. */
export type ConfigSettings = { [N in SettingName as Camel<N>]: Settings[N] };

export function configName<N extends SettingName>(name: N): Camel<N> {
  return name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase()) as Camel<N>;
}

/** Settings as start options. */
export function asConfig(settings: Partial<Settings>): Partial<ConfigSettings> {
  return Object.fromEntries(Object.entries(settings).map(([name, value]) => [configName(name as SettingName), value]));
}

/** The settings that start options give, by setting name; an option set to undefined gives nothing. */
export function fromConfig(config: Partial<ConfigSettings>): Partial<Settings> {
  const given: Record<string, unknown> = {};
  for (const name of SETTING_NAMES) {
    const value = (config as Record<string, unknown>)[configName(name)];
    if (value !== undefined) given[name] = value;
  }
  return given as Partial<Settings>;
}
