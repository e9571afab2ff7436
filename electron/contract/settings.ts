import { Type, type Static } from 'typebox';

/** Loopback names and IP literals, or a DNS name: what a listen() host may be. */
const HOST_PATTERN =
  '^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|[0-9A-Fa-f:.]+)$';

/**
 * Bounds of the numeric settings, also enforced on the matching command-line flags. Inline audio
 * is built in memory and sent in one answer (10,000 characters: about 11 minutes, 30 MB of WAV);
 * the request body limit follows the maximum text length (12 bytes per character: 60 MiB at most).
 */
export const SETTING_BOUNDS = {
  inline_threshold: { minimum: 1, maximum: 10_000 },
  max_text_length: { minimum: 1, maximum: 5_000_000 },
  workers: { minimum: 1, maximum: 64 },
  retention_hours: { minimum: 0, maximum: 87_600 },
  engine_timeout_s: { minimum: 1, maximum: 3600 },
  render_cache_mb: { minimum: 0, maximum: 1_048_576 },
  export_cache_mb: { minimum: 0, maximum: 1_048_576 },
} as const;

/** The settings a person changes in the studio; stored as settings.json in the data dir. */
export const Settings = Type.Object(
  {
    host: Type.String({
      pattern: HOST_PATTERN,
      maxLength: 253,
      description: 'Address the gateway binds; anything but loopback exposes it to the network. Read-only: set by --host or ORATOR_HOST',
    }),
    port: Type.Integer({ minimum: 0, maximum: 65535, description: 'TCP port; 0 picks a free one at each start' }),
    inline_threshold: Type.Integer({
      ...SETTING_BOUNDS.inline_threshold,
      description: 'Longest text (code points) answered inline; longer text becomes a job',
    }),
    max_text_length: Type.Integer({ ...SETTING_BOUNDS.max_text_length, description: 'Longest text (code points) accepted at all' }),
    workers: Type.Integer({ ...SETTING_BOUNDS.workers, description: 'Synthesis worker threads (and job chunks run at once)' }),
    retention_hours: Type.Integer({
      ...SETTING_BOUNDS.retention_hours,
      description: 'Hours that the audio of every new job is kept, whoever made it; 0 keeps it until deleted',
    }),
    engine_timeout_s: Type.Integer({
      ...SETTING_BOUNDS.engine_timeout_s,
      description: 'Seconds one synthesis (an inline request, a job chunk) may run before its engine is stopped (engine_timeout)',
    }),
    render_cache_mb: Type.Integer({
      ...SETTING_BOUNDS.render_cache_mb,
      description: "MiB of sentences' audio the render cache keeps, so that a project's render synthesizes only what changed; 0 keeps none",
    }),
    export_cache_mb: Type.Integer({
      ...SETTING_BOUNDS.export_cache_mb,
      description:
        "MiB of books' encoded chapters the export cache keeps, so that an M4B, MP3 or ZIP export encodes only the chapters that changed; 0 keeps none",
    }),
    models_dir: Type.String({ maxLength: 4096, description: 'Folder of user-supplied voice models (ONNX); empty for none' }),
    engine_executables: Type.Record(Type.String({ pattern: '^[a-z0-9-]+$' }), Type.String({ minLength: 1, maxLength: 4096 }), {
      description: 'Executable of a system engine by engine id, where it is not on PATH, e.g. {"piper": "/opt/piper/piper"}',
    }),
    voice_catalog_url: Type.String({
      maxLength: 2048,
      pattern: '^(|https?://\\S+|file:///\\S*)$',
      description:
        "The voice library's catalog: an http(s) or file:// URL of a catalog in Orator's format (a LAN mirror); empty for the one Orator ships",
    }),
    close_to_tray: Type.Boolean({ description: 'Desktop app: closing the window keeps the gateway running in the tray' }),
    openai_voices: Type.Record(Type.String({ pattern: '^[A-Za-z0-9._-]{1,64}$' }), Type.String({ minLength: 1, maxLength: 256 }), {
      maxProperties: 256,
      description:
        'Voice names of the OpenAI-compatible endpoint (/v1) and the Orator voice each speaks with, e.g. {"alloy": "piper:en_US-lessac-medium"}; names missing here keep their default',
    }),
  },
  { additionalProperties: false },
);
export type Settings = Static<typeof Settings>;
export type SettingName = keyof Settings;

/** What PUT /settings takes: every setting but the bind address, which only flags and env vars set. */
export const SettingsUpdate = Type.Omit(Settings, ['host'], { additionalProperties: false });
export type SettingsUpdate = Static<typeof SettingsUpdate>;

/** Where a setting's value comes from; each wins over those before it: default < saved < env < flag. */
export const SettingSource = Type.Union([Type.Literal('default'), Type.Literal('saved'), Type.Literal('env'), Type.Literal('flag')]);
export type SettingSource = Static<typeof SettingSource>;

export const SettingOrigin = Type.Object({
  source: SettingSource,
  set_by: Type.Optional(
    Type.String({ description: 'The flag or environment variable that set it for this run, e.g. "--retention-hours"' }),
  ),
  editable: Type.Boolean({
    description: 'PUT /settings (and the desktop app) may change it: not the bind address, nor what a flag or variable set',
  }),
});
export type SettingOrigin = Static<typeof SettingOrigin>;

export const SettingsView = Type.Object({
  settings: Settings,
  sources: Type.Record(Type.KeyOf(Settings), SettingOrigin, {
    description: 'Where each value comes from: its default, settings.json, an environment variable or a flag of this run',
  }),
  restart_required: Type.Array(Type.String(), {
    description: 'Saved settings that differ from what the running gateway uses; they apply at the next start',
  }),
  api_key_locked: Type.Boolean({ description: 'The key is set by --api-key or ORATOR_API_KEY for this run and cannot be regenerated' }),
});
export type SettingsView = Static<typeof SettingsView>;

export const NewApiKey = Type.Object({
  api_key: Type.String({ description: 'The new key; the old one stops working at once' }),
});
export type NewApiKey = Static<typeof NewApiKey>;
