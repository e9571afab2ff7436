import { useCallback, useEffect, useRef, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import type { CompareTake } from '../api/contract';
import { sentenceAt, sentenceEnd, sentenceStart, type PlayedTake } from '../lib/played-takes';

/**
 * The players of a text's takes, one plays at a time: which one (active) and at which sentence.
 * Switching takes keeps the sentence, not the second (voices speak at different speeds); a loop
 * sends the active take back to its sentence's start. `sentences` is how many the text has.
 */
export function useTakePlayers(listed: CompareTake[], played: Map<string, PlayedTake>, sentences: number) {
  const [active, setActive] = useState<string | null>(null);
  const [sentence, setSentence] = useState(0);
  const [loop, setLoop] = useState(false);
  const players = useRef(new Map<string, WaveSurfer>());
  const activeTake = listed.find((t) => t.take_id === active);

  const register = useCallback((takeId: string, ws: WaveSurfer | null) => {
    if (ws) players.current.set(takeId, ws);
    else players.current.delete(takeId);
  }, []);

  /** Plays `takeId` from the start of sentence `n`, pausing the others. */
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

  /** The listener clicked a waveform: that take plays from there. */
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

  /** Plays take `takeIndex` of the list at sentence `n`, both kept within bounds. */
  const move = (takeIndex: number, n: number) => {
    const take = listed[Math.max(0, Math.min(listed.length - 1, takeIndex))];
    if (take) playAt(take.take_id, Math.max(0, Math.min(Math.max(0, sentences - 1), n)));
  };
  const activeIndex = Math.max(
    0,
    listed.findIndex((t) => t.take_id === active),
  );

  return { active, activeTake, activeIndex, sentence, loop, setLoop, register, playAt, toggle, seek, move };
}
