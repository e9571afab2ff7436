import type { ReactNode } from 'react';
import type { OratorBridge } from '../../../electron/shell/bridge';
import { LOOPBACK_HOSTS, type SettingName } from '../api/contract';
import { inputLock, LockNote } from './LockNote';
import { NameMap } from './NameMap';
import type { SectionProps } from './section';

function RestartBadge({ shown }: { shown: boolean }) {
  return shown ? <span className="badge settings-restart">restart</span> : null;
}

type NumberSetting =
  | 'port'
  | 'inline_threshold'
  | 'max_text_length'
  | 'workers'
  | 'retention_hours'
  | 'engine_timeout_s'
  | 'render_cache_mb'
  | 'export_cache_mb';
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
  {
    name: 'render_cache_mb',
    label: 'Render cache (MiB)',
    hint: 'Sentences kept so that a book rendered again synthesizes only what changed; about 150 MiB an hour of speech at 22 kHz. 0 keeps none.',
  },
  {
    name: 'export_cache_mb',
    label: 'Export cache (MiB)',
    hint: 'Encoded chapters kept so that a book exported again encodes only what changed; about 30 to 45 MiB an hour at the default bitrates. 0 keeps none.',
  },
];

type TextSetting = 'models_dir' | 'voice_catalog_url';
const TEXTS: { name: TextSetting; label: string; hint: string; placeholder: string }[] = [
  {
    name: 'models_dir',
    label: 'Voice models folder',
    hint: 'Piper, VITS, Kokoro or Matcha ONNX models with their config files.',
    placeholder: '/path/to/voices',
  },
  {
    name: 'voice_catalog_url',
    label: 'Voice catalog URL',
    hint: "The voice library's catalog: an http(s):// or file:// URL of a mirror (docs/voices.md). Refresh the library to read it.",
    placeholder: "Orator's own catalog",
  },
];

/** A setting's label (with its restart badge), its input, its hint, and why it is locked when a flag set it. */
function SettingField(props: { name: SettingName; label: string; hint: string; section: SectionProps; children: ReactNode }) {
  const { name, label, hint, section, children } = props;
  return (
    <label className="field">
      <span>
        {label} <RestartBadge shown={section.pending(name)} />
      </span>
      {children}
      <span className="muted small">{hint}</span>
      <LockNote name={name} by={section.lockedBy(name)} />
    </label>
  );
}

export function GatewaySection(section: SectionProps) {
  const { readOnly, draft, lockedBy } = section;
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
      {NUMBERS.map((field) => (
        <SettingField key={field.name} {...field} section={section}>
          <input
            type="number"
            min={0}
            step={1}
            value={section.draft[field.name]}
            onChange={(e) => section.set(field.name, Number(e.target.value))}
            {...inputLock(section.lockedBy(field.name), field.name)}
          />
        </SettingField>
      ))}
    </fieldset>
  );
}

export function EnginesSection(section: SectionProps) {
  return (
    <fieldset disabled={section.readOnly}>
      <legend>Engines</legend>
      {TEXTS.map((field) => (
        <SettingField key={field.name} {...field} section={section}>
          <input
            value={section.draft[field.name]}
            onChange={(e) => section.set(field.name, e.target.value)}
            placeholder={field.placeholder}
            spellCheck={false}
            {...inputLock(section.lockedBy(field.name), field.name)}
          />
        </SettingField>
      ))}
      <NameMap
        setting="engine_executables"
        section={section}
        title="Engine executables"
        name={{ label: 'Engine id', placeholder: 'engine id, e.g. piper', valid: /^[a-z0-9-]+$/, normalize: (n) => n.toLowerCase() }}
        target={{ label: 'Executable path', placeholder: '/path/to/executable' }}
        removeLabel={(name) => `Remove the executable of ${name}`}
      />
    </fieldset>
  );
}

export function OpenAISection(section: SectionProps) {
  return (
    <fieldset disabled={section.readOnly}>
      <legend>OpenAI-compatible endpoint (/v1)</legend>
      <NameMap
        setting="openai_voices"
        section={section}
        title="Voices"
        hint="The voice each name speaks with at /v1/audio/speech; names not listed keep their default. Applies at once."
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
