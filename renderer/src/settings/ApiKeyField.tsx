import { useState } from 'react';
import { copyText } from './desktop-bridge';

interface Props {
  apiKey: string;
  /** Fixed by --api-key or ORATOR_API_KEY for this run. */
  locked: boolean;
  onRegenerate(): Promise<void>;
}

/** The key, hidden until asked for; copy and regenerate (after a confirmation: old clients lose access). */
export function ApiKeyField({ apiKey, locked, onRegenerate }: Props) {
  const [shown, setShown] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState<{ kind: 'error' | 'notice'; text: string } | null>(null);

  const act = async (action: () => Promise<void>, done: string) => {
    setMessage(null);
    try {
      await action();
      setMessage({ kind: 'notice', text: done });
    } catch (error) {
      setMessage({ kind: 'error', text: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <div className="field">
      <div className="settings-row">
        <input className="mono settings-key" readOnly value={shown ? apiKey : '•'.repeat(24)} aria-label="API key" />
        <button type="button" className="secondary small" onClick={() => setShown(!shown)}>
          {shown ? 'Hide' : 'Show'}
        </button>
        <button type="button" className="secondary small" onClick={() => void act(() => copyText(apiKey), 'API key copied.')}>
          Copy
        </button>
        {!confirming && (
          <button type="button" className="secondary small" disabled={locked} onClick={() => setConfirming(true)}>
            Regenerate…
          </button>
        )}
      </div>
      {locked && <span className="muted small">Set by --api-key or ORATOR_API_KEY for this run; change it there.</span>}
      {confirming && (
        <div className="settings-row" role="group" aria-label="Confirm key regeneration">
          <span className="settings-warning">Every tool using the current key loses access.</span>
          <button
            type="button"
            className="danger small"
            onClick={() => {
              setConfirming(false);
              void act(onRegenerate, 'A new key is in use. Give it to your tools.');
            }}
          >
            Regenerate key
          </button>
          <button type="button" className="ghost small" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {message && (
        <span className={message.kind} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </span>
      )}
    </div>
  );
}
