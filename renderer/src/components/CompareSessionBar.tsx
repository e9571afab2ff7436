import { useState } from 'react';
import { useApp } from '../store';
import { CompareExport } from './CompareExport';

/** The saved sessions: open one, start a new one, rename, duplicate, delete (asked first), export. */
export function CompareSessionBar() {
  const sessions = useApp((s) => s.compareSessions);
  const session = useApp((s) => s.compareSession);
  const { openCompareSession, duplicateCompareSession, deleteCompareSession, patchCompareSession } = useApp.getState();
  const [renaming, setRenaming] = useState<string | null>(null);

  const rename = () => {
    if (renaming?.trim()) void patchCompareSession({ name: renaming.trim() });
    setRenaming(null);
  };
  const remove = () => {
    if (session && window.confirm(`Delete the session “${session.name}” with its takes and verdicts?`))
      void deleteCompareSession(session.session_id);
  };

  return (
    <div className="compare-session-bar">
      <label className="field inline">
        <span>Session</span>
        <select aria-label="Session" value={session?.session_id ?? ''} onChange={(e) => void openCompareSession(e.target.value || null)}>
          <option value="">New session</option>
          {sessions.map((s) => (
            <option key={s.session_id} value={s.session_id}>
              {s.name} ({s.voice_count} voices, {s.ready_count}/{s.take_count} takes)
            </option>
          ))}
        </select>
      </label>
      {session && renaming === null && (
        <>
          <button type="button" className="secondary small" onClick={() => setRenaming(session.name)}>
            Rename
          </button>
          <button type="button" className="secondary small" onClick={() => void duplicateCompareSession()}>
            Duplicate
          </button>
          <button type="button" className="secondary small danger" onClick={remove}>
            Delete
          </button>
          <CompareExport session={session} />
        </>
      )}
      {renaming !== null && (
        <form
          className="inline"
          onSubmit={(e) => {
            e.preventDefault();
            rename();
          }}
        >
          <input
            aria-label="Session name"
            value={renaming}
            onChange={(e) => setRenaming(e.target.value)}
            autoFocus
            onKeyDown={(e) => e.key === 'Escape' && setRenaming(null)}
          />
          <button type="submit" className="primary small">
            Save
          </button>
        </form>
      )}
    </div>
  );
}
