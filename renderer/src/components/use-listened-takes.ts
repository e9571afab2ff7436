import { useCallback, useMemo } from 'react';
import type { CompareSession } from '../api/contract';
import { playedTakes } from '../lib/played-takes';
import { useApp } from '../store';
import { takeLetter } from '../store/compare-slice';
import { voiceLabel } from '../store/engines-slice';

/**
 * The takes of one text of a session as the listener meets them: in the session's order (shuffled
 * when blind), as they play (loudness-matched, blind-trimmed: lib/played-takes.ts), and by name:
 * the voice's, or "Take B" while the voices are hidden.
 */
export function useListenedTakes(session: CompareSession, text: number) {
  const audio = useApp((s) => s.compareAudio);
  const match = useApp((s) => s.compareMatch);
  const engines = useApp((s) => s.engines);
  const voices = useApp((s) => s.voices);
  const hidden = session.blind && !session.revealed;

  const listed = useMemo(() => {
    const byId = new Map(session.takes.map((t) => [t.take_id, t]));
    return session.order.flatMap((id) => (byId.get(id)?.text_index === text ? [byId.get(id)!] : []));
  }, [session, text]);
  const { target, played } = useMemo(() => playedTakes(listed, audio, { match, hidden }), [listed, audio, match, hidden]);
  const nameOf = useCallback(
    (takeId: string) => {
      const position = listed.findIndex((t) => t.take_id === takeId);
      const take = listed[position];
      return hidden || !take ? `Take ${takeLetter(position)}` : voiceLabel({ engines, voices }, take.voice);
    },
    [listed, hidden, engines, voices],
  );
  /** A take with sentence timings: the sentences listed, and what moving by sentence counts. */
  const timed = listed.find((t) => t.timings);
  return { listed, hidden, target, played, nameOf, timed };
}
