import type { CompareSession, CompareTake } from '../api/contract';
import { nextPair, pairwiseRanking } from '../lib/pairwise';
import { useApp } from '../store';

interface Props {
  session: CompareSession;
  takes: readonly CompareTake[];
  nameOf(takeId: string): string;
  onPlay(takeId: string): void;
}

/** A vs B, pick the better, next pair, until the choices rank every take of the text. */
export function PairwiseRound({ session, takes, nameOf, onPlay }: Props) {
  const ready = takes.filter((t) => t.status === 'ready').map((t) => t.take_id);
  const pair = nextPair(ready, session.pairs);
  const ranking = pairwiseRanking(ready, session.pairs);
  const choose = (winner: string) => pair && useApp.getState().recordPair({ a: pair[0], b: pair[1], winner });
  return (
    <section className="pairwise" aria-label="Pairwise round">
      {pair ? (
        <>
          <p>Which is better?</p>
          {pair.map((id, i) => (
            <div key={id} className="pair-side">
              <button type="button" className="secondary" onClick={() => onPlay(id)}>
                Play {i === 0 ? 'A' : 'B'} ({nameOf(id)})
              </button>
              <button type="button" className="primary" onClick={() => choose(id)}>
                {i === 0 ? 'A' : 'B'} is better
              </button>
            </div>
          ))}
        </>
      ) : (
        <>
          <h3>Ranking</h3>
          <ol aria-label="Ranking">
            {(ranking ?? []).map((id) => (
              <li key={id}>{nameOf(id)}</li>
            ))}
          </ol>
        </>
      )}
    </section>
  );
}
