import { useEffect } from 'react';
import { useApp } from '../store';
import { CompareListening } from './CompareListening';
import { CompareSessionBar } from './CompareSessionBar';
import { CompareSetup } from './CompareSetup';

/**
 * Compare voices (QA): sessions of texts in up to 24 voices, saved by the gateway so that they
 * reopen after a reload; listened to sentence by sentence, judged by stars or pairwise choices.
 */
export function ComparePanel() {
  const session = useApp((s) => s.compareSession);
  const error = useApp((s) => s.compareError);
  const client = useApp((s) => s.client);

  useEffect(() => {
    if (!client) return;
    const { loadCompareSessions, openCompareSession, compareSessionId, compareSession } = useApp.getState();
    void loadCompareSessions();
    if (compareSessionId && !compareSession) void openCompareSession(compareSessionId);
  }, [client]);

  return (
    <section className="card compare" aria-labelledby="compare-title">
      <div className="compare-head">
        <h2 id="compare-title">Compare voices</h2>
        <span className="muted small">Switching takes keeps the sentence. Press ? for the keys.</span>
      </div>
      <CompareSessionBar />
      <CompareSetup />
      {error && (
        <p className="error" role="alert">
          {error}
        </p>
      )}
      {session ? (
        <CompareListening key={session.session_id} session={session} />
      ) : (
        <p className="empty">
          Choose voices and press Compare. The session is saved: it reopens after a reload, with its takes and verdicts.
        </p>
      )}
    </section>
  );
}
