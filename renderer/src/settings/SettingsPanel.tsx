import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { saveKey } from '../api/connection';
import { API, type SettingName, type Settings, type SettingsView } from '../api/contract';
import type { OratorClient } from '../api/client';
import { useApp } from '../store';
import { AdminTokenField } from './AdminTokenField';
import { ApiKeyField } from './ApiKeyField';
import { desktopBridge } from './desktop-bridge';
import type { SectionProps } from './section';
import { DesktopSection, EnginesSection, GatewaySection, OpenAISection } from './SettingsSections';
import { settingsWriter } from './settings-writer';
import './settings.css';

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

type Status = { kind: 'error' | 'notice'; text: string };

/** The settings as the gateway last answered them, and the form's draft of them. */
function useSettingsView(client: OratorClient | null, setStatus: (status: Status) => void) {
  const [view, setView] = useState<SettingsView | null>(null);
  const [draft, setDraft] = useState<Settings | null>(null);
  const show = useCallback((answer: SettingsView) => {
    setView(answer);
    setDraft(answer.settings);
  }, []);
  useEffect(() => {
    if (!client) return;
    client
      .call(API.getSettings)
      .then(show, (error: unknown) => setStatus({ kind: 'error', text: `Could not load the settings: ${errorText(error)}` }));
  }, [client, setStatus, show]);
  return { view, draft, setDraft, show };
}

/** The gateway's settings: what applies at once is said so, what needs a restart is marked, what a flag set is locked. */
export function SettingsPanel() {
  const client = useApp((s) => s.client);
  const [status, setStatus] = useState<Status | null>(null);
  const { view, draft, setDraft, show } = useSettingsView(client, setStatus);
  const [saving, setSaving] = useState(false);
  // in memory only, for this panel's life: never stored, never in the URL
  const [adminToken, setAdminToken] = useState<string | null>(null);
  const bridge = desktopBridge();

  if (!client || !draft || !view) {
    return (
      <div className="settings-panel">{status ? <p className="error">{status.text}</p> : <p className="muted">Loading settings…</p>}</div>
    );
  }

  const writer = settingsWriter(client, bridge, adminToken);
  const section: SectionProps = {
    readOnly: !writer,
    draft,
    set: (name, value) => setDraft({ ...draft, [name]: value }),
    pending: (name) => view.restart_required.includes(name),
    lockedBy: (name: SettingName) => (view.sources[name].editable ? undefined : view.sources[name].set_by),
  };

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!writer) return;
    setSaving(true);
    setStatus(null);
    try {
      const { host: _host, ...update } = draft;
      const saved = await writer.save(update);
      show(saved);
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
        <GatewaySection {...section} />
        <EnginesSection {...section} />
        <OpenAISection {...section} />
        <fieldset>
          <legend>API key</legend>
          <ApiKeyField apiKey={client.connection.apiKey} locked={view.api_key_locked || !writer} onRegenerate={regenerate} />
        </fieldset>
        <DesktopSection {...section} bridge={bridge} />

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
