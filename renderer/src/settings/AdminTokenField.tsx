import { useState, type FormEvent } from 'react';

interface Props {
  onUnlock(token: string): void;
}

/** The web studio's way to change settings: the admin token from the data folder, kept in memory only. */
export function AdminTokenField({ onUnlock }: Props) {
  const [token, setToken] = useState('');
  const unlock = (event: FormEvent) => {
    event.preventDefault();
    if (token.trim()) onUnlock(token.trim());
  };
  return (
    <form className="field settings-unlock" onSubmit={unlock} aria-label="Unlock settings">
      <span>
        Settings are read-only with the API key. To change them, paste the admin token from the file <code>admin-token</code> in Orator’s
        data folder; this page forgets it when it is closed.
      </span>
      <div className="settings-row">
        <input
          type="password"
          className="mono"
          value={token}
          onChange={(e) => setToken(e.target.value)}
          aria-label="Admin token"
          autoComplete="off"
          spellCheck={false}
        />
        <button type="submit" className="secondary small" disabled={!token.trim()}>
          Unlock
        </button>
      </div>
    </form>
  );
}
