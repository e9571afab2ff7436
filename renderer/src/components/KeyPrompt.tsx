import { useState, type FormEvent } from 'react';
import { useApp } from '../store';

/** Shown without a key, or when the gateway refused it; the only screen before the studio. */
export function KeyPrompt() {
  const auth = useApp((s) => s.auth);
  const submitKey = useApp((s) => s.submitKey);
  const [key, setKey] = useState('');

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (key.trim()) void submitKey(key);
  };

  return (
    <main className="key-prompt">
      <form className="card key-card" onSubmit={onSubmit} aria-labelledby="key-title">
        <h1 id="key-title">Connect to Orator</h1>
        {auth === 'rejected' ? (
          <p className="error" role="alert">
            The gateway did not accept this API key. Enter the current key to continue.
          </p>
        ) : (
          <p>The studio needs the API key of your Orator gateway.</p>
        )}
        <p className="muted">
          Open the studio link that <code>npm run serve</code> prints (it ends in <code>#key=…</code>), or paste the key from the{' '}
          <code>api-key</code> file in the gateway&rsquo;s data folder.
        </p>
        <label className="field">
          <span>API key</span>
          <input type="password" autoComplete="off" spellCheck={false} value={key} onChange={(e) => setKey(e.target.value)} autoFocus />
        </label>
        <button type="submit" className="primary" disabled={!key.trim()}>
          Connect
        </button>
      </form>
    </main>
  );
}
