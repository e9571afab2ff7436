import type { OratorBridge } from '../../../electron/shell/bridge';
import { LOOPBACK_HOSTS, type SettingName, type Settings } from '../api/contract';
import { inputLock, LockNote } from './LockNote';
import { NameMap } from './NameMap';

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

function RestartBadge({ shown }: { shown: boolean }) {
  return shown ? <span className="badge settings-restart">restart</span> : null;
}

type NumberSetting = 'port' | 'inline_threshold' | 'max_text_length' | 'workers' | 'retention_hours' | 'engine_timeout_s';
const NUMBERS: { name: NumberSetting; label: string; hint: string }[] = [
  { name: 'port', label: 'Port', hint: '0 picks a free port at each start.' },
  { name: 'workers', label: 'Worker threads', hint: 'Chunks synthesized at once.' },
  { name: 'inline_threshold', label: 'Inline threshold (characters)', hint: 'Longer text becomes a job.' },
  { name: 'max_text_length', label: 'Maximum text length (characters)', hint: 'Longer text is refused.' },
  { name: 'retention_hours', label: 'Keep job audio (hours)', hint: 'Every new job, the studio’s too. 0 keeps it until deleted.' },
  {
    name: 'engine_timeout_s',
    label: 'Engine time limit (seconds)',
    hint: 'One synthesis (a request, a job chunk) running longer is stopped. Slow voices on a slow machine may need more.',
  },
];

export function GatewaySection({ readOnly, draft, set, pending, lockedBy }: SectionProps) {
  const hostSetBy = lockedBy('host');
  return (
    <fieldset disabled={readOnly}>
      <legend>Gateway</legend>
      <label className="field">
        <span>Bind address</span>
        <input value={draft.host} readOnly spellCheck={false} />
        <span className="muted small">
          {hostSetBy ? `Set by ${hostSetBy}, cannot be changed here.` : 'Set where Orator is started: --host or ORATOR_HOST.'}
        </span>
        {!LOOPBACK_HOSTS.includes(draft.host) && (
          <span className="settings-warning" role="alert">
            Not a loopback address: other machines can reach the gateway; only the API key protects it.
          </span>
        )}
      </label>
      {NUMBERS.map(({ name, label, hint }) => (
        <label className="field" key={name}>
          <span>
            {label} <RestartBadge shown={pending(name)} />
          </span>
          <input
            type="number"
            min={0}
            step={1}
            value={draft[name]}
            onChange={(e) => set(name, Number(e.target.value))}
            {...inputLock(lockedBy(name), name)}
          />
          <span className="muted small">{hint}</span>
          <LockNote name={name} by={lockedBy(name)} />
        </label>
      ))}
    </fieldset>
  );
}

export function EnginesSection({ readOnly, draft, set, pending, lockedBy }: SectionProps) {
  return (
    <fieldset disabled={readOnly}>
      <legend>Engines</legend>
      <label className="field">
        <span>
          Voice models folder <RestartBadge shown={pending('models_dir')} />
        </span>
        <input
          value={draft.models_dir}
          onChange={(e) => set('models_dir', e.target.value)}
          placeholder="/path/to/voices"
          spellCheck={false}
          {...inputLock(lockedBy('models_dir'), 'models_dir')}
        />
        <span className="muted small">Piper, VITS, Kokoro or Matcha ONNX models with their config files.</span>
        <LockNote name="models_dir" by={lockedBy('models_dir')} />
      </label>
      <label className="field">
        <span>Voice catalog URL</span>
        <input
          value={draft.voice_catalog_url}
          onChange={(e) => set('voice_catalog_url', e.target.value)}
          placeholder="Orator's own catalog"
          spellCheck={false}
          {...inputLock(lockedBy('voice_catalog_url'), 'voice_catalog_url')}
        />
        <span className="muted small">
          The voice library's catalog: an http(s):// or file:// URL of a mirror (docs/voices.md). Refresh the library to read it.
        </span>
        <LockNote name="voice_catalog_url" by={lockedBy('voice_catalog_url')} />
      </label>
      <NameMap
        setting="engine_executables"
        title="Engine executables"
        value={draft.engine_executables}
        onChange={(value) => set('engine_executables', value)}
        pending={pending('engine_executables')}
        lockedBy={lockedBy('engine_executables')}
        name={{ label: 'Engine id', placeholder: 'engine id, e.g. piper', valid: /^[a-z0-9-]+$/, normalize: (n) => n.toLowerCase() }}
        target={{ label: 'Executable path', placeholder: '/path/to/executable' }}
        removeLabel={(name) => `Remove the executable of ${name}`}
      />
    </fieldset>
  );
}

export function OpenAISection({ readOnly, draft, set, pending, lockedBy }: SectionProps) {
  return (
    <fieldset disabled={readOnly}>
      <legend>OpenAI-compatible endpoint (/v1)</legend>
      <NameMap
        setting="openai_voices"
        title="Voices"
        hint="The voice each name speaks with at /v1/audio/speech; names not listed keep their default. Applies at once."
        value={draft.openai_voices}
        onChange={(value) => set('openai_voices', value)}
        pending={pending('openai_voices')}
        lockedBy={lockedBy('openai_voices')}
        name={{ label: 'OpenAI voice name', placeholder: 'name, e.g. alloy', valid: /^[A-Za-z0-9._-]{1,64}$/ }}
        target={{ label: 'Orator voice', placeholder: 'voice id, e.g. piper:en_US-lessac-medium' }}
        removeLabel={(name) => `Remove the voice of ${name}`}
      />
    </fieldset>
  );
}

export function DesktopSection({ readOnly, draft, set, lockedBy, bridge }: SectionProps & { bridge: OratorBridge | null }) {
  return (
    <fieldset disabled={readOnly}>
      <legend>Desktop app</legend>
      <label className="inline-field">
        <input
          type="checkbox"
          checked={draft.close_to_tray}
          onChange={(e) => set('close_to_tray', e.target.checked)}
          {...inputLock(lockedBy('close_to_tray'), 'close_to_tray')}
        />
        Closing the window keeps the gateway running in the tray
      </label>
      <LockNote name="close_to_tray" by={lockedBy('close_to_tray')} />
      {bridge && (
        <p className="settings-row">
          <button type="button" className="secondary small" onClick={() => void bridge.openDataFolder()}>
            Open data folder
          </button>
          <span className="muted small">Orator {bridge.appVersion}</span>
        </p>
      )}
    </fieldset>
  );
}
