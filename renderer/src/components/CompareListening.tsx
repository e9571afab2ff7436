import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import type { CompareSession } from '../api/contract';
import { formatLoudness } from '../lib/loudness-match';
import { playedTakes, sentenceAt, sentenceEnd, sentenceStart } from '../lib/played-takes';
import { useApp } from '../store';
import { takeLetter } from '../store/compare-slice';
import { voiceLabel } from '../store/engines-slice';
import { CompareSentences } from './CompareSentences';
import { CompareTakeRow } from './CompareTakeRow';
import { PairwiseRound } from './PairwiseRound';
import { ShortcutHelp } from './ShortcutHelp';
import { useCompareKeys } from './use-compare-keys';
import { takeFileName } from '../lib/compare-export';

/**
 * Listening to a session, one text at a time: its sentences, its takes stacked. Switching takes
 * keeps the sentence, not the second (voices speak at different speeds); clicking a waveform plays
 * that take from where it was clicked.
 */
export function CompareListening({ session }: { session: CompareSession }) {
  const audio = useApp((s) => s.compareAudio);
  const match = useApp((s) => s.compareMatch);
  const engines = useApp((s) => s.engines);
  const voices = useApp((s) => s.voices);
  const [textIndex, setTextIndex] = useState(0);
  const [active, setActive] = useState<string | null>(null);
  const [sentence, setSentence] = useState(0);
  const [loop, setLoop] = useState(false);
  const [help, setHelp] = useState(false);
  const [ratingMode, setRatingMode] = useState(false);
  const [pairwise, setPairwise] = useState(false);
  const players = useRef(new Map<string, WaveSurfer>());
  const hidden = session.blind && !session.revealed;
  const text = Math.min(textIndex, session.texts.length - 1);

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
  const timed = listed.find((t) => t.timings);
  const activeTake = listed.find((t) => t.take_id === active);

  const register = useCallback((takeId: string, ws: WaveSurfer | null) => {
    if (ws) players.current.set(takeId, ws);
    else players.current.delete(takeId);
  }, []);

  /** Plays `takeId` from the start of sentence `n` (default: the current one), pausing the others. */
  const playAt = useCallback(
    (takeId: string, n: number) => {
      const ws = players.current.get(takeId);
      const take = listed.find((t) => t.take_id === takeId);
      if (!ws || !take || !played.has(takeId)) return;
      players.current.forEach((other, id) => id !== takeId && other.pause());
      ws.setTime(Math.min(sentenceStart(take, played.get(takeId), n), Math.max(0, ws.getDuration() - 0.05)));
      setActive(takeId);
      setSentence(n);
      void ws.play().catch(() => undefined);
    },
    [listed, played],
  );

  const toggle = useCallback(
    (takeId: string) => {
      const ws = players.current.get(takeId);
      if (active === takeId && ws?.isPlaying()) return ws.pause();
      if (active === takeId && ws) return void ws.play().catch(() => undefined);
      playAt(takeId, sentence);
    },
    [active, playAt, sentence],
  );

  const seek = useCallback((takeId: string) => {
    const ws = players.current.get(takeId);
    if (!ws) return;
    players.current.forEach((other, id) => id !== takeId && other.pause());
    setActive(takeId);
    void ws.play().catch(() => undefined);
  }, []);

  // The sentence follows the active take as it plays; a loop sends it back to the sentence's start.
  useEffect(() => {
    const ws = active ? players.current.get(active) : undefined;
    if (!ws || !activeTake) return;
    return ws.on('timeupdate', (time) => {
      const p = played.get(activeTake.take_id);
      if (loop && time >= sentenceEnd(activeTake, p, sentence)) return ws.setTime(sentenceStart(activeTake, p, sentence));
      const now = sentenceAt(activeTake, p, time);
      if (now !== sentence) setSentence(now);
    });
  }, [active, activeTake, played, loop, sentence]);

  const count = timed?.timings?.sentences.length ?? 0;
  const move = (takeIndex: number, n: number) => {
    const take = listed[Math.max(0, Math.min(listed.length - 1, takeIndex))];
    if (take) playAt(take.take_id, Math.max(0, Math.min(Math.max(0, count - 1), n)));
  };
  const activeIndex = Math.max(
    0,
    listed.findIndex((t) => t.take_id === active),
  );
  useCompareKeys(
    {
      togglePlay: () => listed[activeIndex] && toggle(listed[activeIndex].take_id),
      take: (n) => n < listed.length && move(n, sentence),
      sentence: (step) => move(activeIndex, sentence + step),
      voice: (step) => move(activeIndex + step, sentence),
      rate: (stars) => listed[activeIndex] && useApp.getState().rateTake(listed[activeIndex].take_id, stars === 0 ? null : stars),
      note: () => listed[activeIndex] && document.getElementById(`note-${listed[activeIndex].take_id}`)?.focus(),
      loop: () => setLoop((on) => !on),
      help: () => setHelp((on) => !on),
      rating: setRatingMode,
    },
    !pairwise && !help,
  );

  return (
    <div className="compare-listening">
      {session.texts.length > 1 && (
        <label className="field inline">
          <span>Text</span>
          <select value={text} onChange={(e) => setTextIndex(Number(e.target.value))} aria-label="Text listened to">
            {session.texts.map((t, i) => (
              <option key={i} value={i}>
                {i + 1}. {t.slice(0, 60)}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="compare-session">
        <span className="muted small" data-testid="loudness-target">
          {!match
            ? 'Takes play at their own loudness.'
            : target !== null
              ? `Loudness matched: every take plays at ${formatLoudness(target)}.`
              : 'No take has a loudness to match yet.'}
        </span>
        <label className="check">
          <input type="checkbox" checked={loop} onChange={(e) => setLoop(e.target.checked)} />
          Loop sentence
        </label>
        <button type="button" className="secondary small" onClick={() => setPairwise((on) => !on)} aria-pressed={pairwise}>
          Pairwise
        </button>
        <button type="button" className="secondary small" onClick={() => setHelp(true)}>
          Shortcuts (?)
        </button>
        <span className="muted small" role="status">
          {ratingMode ? `Rating ${activeTake ? nameOf(activeTake.take_id) : 'the take'}: press 1–5 (0 clears)` : ''}
        </span>
      </div>
      {hidden && (
        <p className="blind-bar">
          <span>Blind: takes shuffled over the session, trimmed to one length, voices hidden.</span>
          <button type="button" className="secondary small" onClick={() => void useApp.getState().patchCompareSession({ revealed: true })}>
            Reveal voices
          </button>
        </p>
      )}
      {pairwise && <PairwiseRound session={session} takes={listed} nameOf={nameOf} onPlay={(id) => playAt(id, sentence)} />}
      {timed && (
        <CompareSentences
          timings={timed.timings!}
          current={sentence}
          activeTake={activeTake}
          name={activeTake ? nameOf(activeTake.take_id) : ''}
          onPlay={(n) => move(activeIndex, n)}
        />
      )}
      <ol className="takes" aria-label="Takes">
        {listed.map((take, position) => (
          <CompareTakeRow
            key={take.take_id}
            take={take}
            position={position}
            name={nameOf(take.take_id)}
            hidden={hidden}
            played={played.get(take.take_id)}
            active={active === take.take_id}
            fileName={takeFileName(session, nameOf(take.take_id))}
            onPlay={toggle}
            onSeek={seek}
            register={register}
          />
        ))}
      </ol>
      {help && <ShortcutHelp onClose={() => setHelp(false)} />}
    </div>
  );
}
