import { useApp } from '../store';

/** The lexicon's entries, each heard in `voiceId` (the panel's "Hear it with") or deleted. */
export function LexiconTable({ voiceId }: { voiceId: string }) {
  const entries = useApp((s) => s.lexicon);
  const hearing = useApp((s) => s.hearingEntry);
  const { deleteLexiconEntry, hearLexiconEntry } = useApp.getState();

  return (
    <table className="lexicon-table">
      <thead>
        <tr>
          <th scope="col">Word or phrase</th>
          <th scope="col">Said as</th>
          <th scope="col">Language</th>
          <th scope="col">Voice</th>
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {entries.map((entry) => (
          <tr key={entry.id}>
            <td>
              {entry.grapheme}
              {entry.case_sensitive && <span className="tag">case</span>}
              {!entry.whole_word && <span className="tag">in words</span>}
            </td>
            <td>
              {entry.alias}
              {entry.phoneme && <code> [[{entry.phoneme}]]</code>}
            </td>
            <td>{entry.language}</td>
            <td>{entry.voice ?? 'any'}</td>
            <td className="lexicon-actions">
              <button
                type="button"
                className="small primary"
                onClick={() => void hearLexiconEntry(entry, voiceId)}
                disabled={hearing !== null}
              >
                {hearing === entry.id ? 'Loading…' : 'Hear it'}
              </button>
              <button
                type="button"
                className="small secondary danger"
                onClick={() => void deleteLexiconEntry(entry.id)}
                aria-label={`Delete ${entry.grapheme}`}
              >
                Delete
              </button>
            </td>
          </tr>
        ))}
        {entries.length === 0 && (
          <tr>
            <td colSpan={5} className="hint">
              No entries yet.
            </td>
          </tr>
        )}
      </tbody>
    </table>
  );
}
