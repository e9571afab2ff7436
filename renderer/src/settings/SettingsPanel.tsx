import { useEffect, useState, type FormEvent } from 'react';
import { saveKey } from '../api/connection';
import { API, LOOPBACK_HOSTS, type SettingName, type Settings, type SettingsView } from '../api/contract';
import { useApp } from '../store';
import { AdminTokenField } from './AdminTokenField';
import { ApiKeyField } from './ApiKeyField';
import { desktopBridge } from './desktop-bridge';
import { NameMap } from './NameMap';
import { settingsWriter } from './settings-writer';
import './settings.css';

type NumberSetting = 'port' | 'inline_threshold' | 'max_text_length' | 'workers' | 'retention_hours';
const NUMBERS: { name: NumberSetting; label: string; hint: string }[] = [
  { name: 'port', label: 'Port', hint: '0 picks a free port at each start.' },
  { name: 'workers', label: 'Worker threads', hint: 'Chunks synthesized at once.' },
  { name: 'inline_threshold', label: 'Inline threshold (characters)', hint: 'Longer text becomes a job.' },
  { name: 'max_text_length', label: 'Maximum text length (characters)', hint: 'Longer text is refused.' },
  { name: 'retention_hours', label: 'Keep job audio (hours)', hint: 'Every new job, the studio’s too. 0 keeps it until deleted.' },
];

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The gateway's settings: what applies at once is said so, what needs a restart is marked. */
export function SettingsPanel() {
  const client = useApp((s) => s.client);
  const [view, setView] = useState<SettingsView | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const [status, setStatus] = useState<{ kind: 'error' | 'notice'; text: string } | null>(null);
  const [saving, setSaving] = useState(false);
  // in memory only, for this panel's life: never stored, never in the URL
  const [adminToken, setAdminToken] = useState<string | null>(null);
  const bridge = desktopBridge();

  useEffect(() => {
    if (!client) return;
    client.call(API.getSettings).then(
      (loaded) => {
        setView(loaded);
        setDraft(loaded.settings);
      },
      (error: unknown) => setStatus({ kind: 'error', text: `Could not load the settings: ${errorText(error)}` }),
    );
  }, [client]);

  if (!client || !draft || !view) {
    return (
      <div className="settings-panel">{status ? <p className="error">{status.text}</p> : <p className="muted">Loading settings…</p>}</div>
    );
  }

  const set = <K extends SettingName>(name: K, value: Settings[K]) => setDraft({ ...draft, [name]: value });
  const pending = (name: SettingName) => view.restart_required.includes(name);
  const writer = settingsWriter(client, bridge, adminToken);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!writer) return;
    setSaving(true);
    setStatus(null);
    try {
      const { host: _host, ...update } = draft;
      const saved = await writer.save(update);
      setView(saved);
      setDraft(saved.settings);
      const restart = saved.restart_required.length > 0 ? ` Restart Orator to apply: ${saved.restart_required.join(', ')}.` : '';
      setStatus({ kind: 'notice', text: `Saved.${restart}` });
      void useApp.getState().loadSettings();
    } catch (error) {
      setStatus({ kind: 'error', text: errorText(error) });
    } finally {
      setSaving(false);
    }
  };

  const regenerate = async () => {
    if (!writer) return;
    const key = await writer.regenerateApiKey();
    saveKey(key);
    // The old key is dead: carry on with a client holding the new one (job sync restarts with it).
    useApp.setState({ client: client.withApiKey(key) });
  };

  return (
    <div>
      {!writer && <AdminTokenField onUnlock={setAdminToken} />}
      <form className="settings-panel" onSubmit={(event) => void save(event)} aria-label="Settings">
        <fieldset disabled={!writer}>
          <legend>Gateway</legend>
          <label className="field">
            <span>Bind address</span>
            <input value={draft.host} readOnly spellCheck={false} />
            <span className="muted small">Set where Orator is started: --host or ORATOR_HOST.</span>
            {!LOOPBACK_HOSTS.includes(draft.host) && (
              <span className="settings-warning" role="alert">
                Not a loopback address: other machines can reach the gateway; only the API key protects it.
              </span>
            )}
          </label>
          {NUMBERS.map(({ name, label, hint }) => (
            <label className="field" key={name}>
              <span>
                {label} {pending(name) && <span className="badge settings-restart">restart</span>}
              </span>
              <input type="number" min={0} step={1} value={draft[name]} onChange={(e) => set(name, Number(e.target.value))} />
              <span className="muted small">{hint}</span>
            </label>
          ))}
        </fieldset>

        <fieldset disabled={!writer}>
          <legend>Engines</legend>
          <label className="field">
            <span>Voice models folder {pending('models_dir') && <span className="badge settings-restart">restart</span>}</span>
            <input
              value={draft.models_dir}
              onChange={(e) => set('models_dir', e.target.value)}
              placeholder="/path/to/voices"
              spellCheck={false}
            />
            <span className="muted small">Piper, VITS, Kokoro or Matcha ONNX models with their config files.</span>
          </label>
          <label className="field">
            <span>Voice catalog URL</span>
            <input
              value={draft.voice_catalog_url}
              onChange={(e) => set('voice_catalog_url', e.target.value)}
              placeholder="Orator's own catalog"
              spellCheck={false}
            />
            <span className="muted small">
              The voice library's catalog: an http(s):// or file:// URL of a mirror (docs/voices.md). Refresh the library to read it.
            </span>
          </label>
          <NameMap
            title="Engine executables"
            value={draft.engine_executables}
            onChange={(value) => set('engine_executables', value)}
            pending={pending('engine_executables')}
            name={{ label: 'Engine id', placeholder: 'engine id, e.g. piper', valid: /^[a-z0-9-]+$/, normalize: (n) => n.toLowerCase() }}
            target={{ label: 'Executable path', placeholder: '/path/to/executable' }}
            removeLabel={(name) => `Remove the executable of ${name}`}
          />
        </fieldset>

        <fieldset disabled={!writer}>
          <legend>OpenAI-compatible endpoint (/v1)</legend>
          <NameMap
            title="Voices"
            hint="The voice each name speaks with at /v1/audio/speech; names not listed keep their default. Applies at once."
            value={draft.openai_voices}
            onChange={(value) => set('openai_voices', value)}
            pending={pending('openai_voices')}
            name={{ label: 'OpenAI voice name', placeholder: 'name, e.g. alloy', valid: /^[A-Za-z0-9._-]{1,64}$/ }}
            target={{ label: 'Orator voice', placeholder: 'voice id, e.g. piper:en_US-lessac-medium' }}
            removeLabel={(name) => `Remove the voice of ${name}`}
          />
        </fieldset>

        <fieldset>
          <legend>API key</legend>
          <ApiKeyField apiKey={client.connection.apiKey} locked={view.api_key_locked || !writer} onRegenerate={regenerate} />
        </fieldset>

        <fieldset disabled={!writer}>
          <legend>Desktop app</legend>
          <label className="inline-field">
            <input type="checkbox" checked={draft.close_to_tray} onChange={(e) => set('close_to_tray', e.target.checked)} />
            Closing the window keeps the gateway running in the tray
          </label>
          {bridge && (
            <p className="settings-row">
              <button type="button" className="secondary small" onClick={() => void bridge.openDataFolder()}>
                Open data folder
              </button>
              <span className="muted small">Orator {bridge.appVersion}</span>
            </p>
          )}
        </fieldset>

        <div className="settings-actions">
          {status && (
            <p className={status.kind} role={status.kind === 'error' ? 'alert' : 'status'}>
              {status.text}
            </p>
          )}
          <button type="submit" className="primary" disabled={saving || !writer}>
            {saving ? 'Saving…' : 'Save settings'}
          </button>
        </div>
      </form>
    </div>
  );
}
