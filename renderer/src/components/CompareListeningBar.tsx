import type { Dispatch, SetStateAction } from 'react';
import { formatLoudness } from '../lib/loudness-match';
import { useApp } from '../store';

interface Props {
  /** The loudness every take is matched to; null when none has a loudness yet. */
  target: number | null;
  loop: boolean;
  setLoop(on: boolean): void;
  pairwise: boolean;
  setPairwise: Dispatch<SetStateAction<boolean>>;
  onHelp(): void;
  /** The take the rating keys (R, then a digit) wait for; null when they do not. */
  rating: string | null;
  /** Blind and not revealed yet. */
  hidden: boolean;
}

/** The listening controls above the takes: loudness, loop, pairwise, shortcuts; while blind, Reveal. */
export function CompareListeningBar({ target, loop, setLoop, pairwise, setPairwise, onHelp, rating, hidden }: Props) {
  const match = useApp((s) => s.compareMatch);
  return (
    <>
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
        <button type="button" className="secondary small" onClick={onHelp}>
          Shortcuts (?)
        </button>
        <span className="muted small" role="status">
          {rating !== null ? `Rating ${rating}: press 1–5 (0 clears)` : ''}
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
    </>
  );
}

/** Which of the session's texts is listened to, when it has several. */
export function CompareTextPicker({ texts, text, onChange }: { texts: string[]; text: number; onChange(text: number): void }) {
  return (
    <label className="field inline">
      <span>Text</span>
      <select value={text} onChange={(e) => onChange(Number(e.target.value))} aria-label="Text listened to">
        {texts.map((t, i) => (
          <option key={i} value={i}>
            {i + 1}. {t.slice(0, 60)}
          </option>
        ))}
      </select>
    </label>
  );
}
