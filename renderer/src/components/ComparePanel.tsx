import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type WaveSurfer from 'wavesurfer.js';
import { codePoints, PREVIEW_MAX_CHARS } from '../api/contract';
import { formatCount } from '../lib/format';
import { formatLoudness, gainToTarget, matchTarget, type TakeLevel } from '../lib/loudness-match';
import { useApp } from '../store';
import { COMPARE_MAX, COMPARE_MIN } from '../store/compare-slice';
import { CompareExport } from './CompareExport';
import { CompareTakeRow } from './CompareTakeRow';
import { VoicePicker } from './VoicePicker';

/**
 * Compare voices (QA): one text in two to four voices, waveforms stacked. Switching rows keeps
 * the position, so the same words can be heard in each voice; keys 1–4 switch too.
 */
export function ComparePanel() {
  const text = useApp((s) => s.compareText);
  const setText = useApp((s) => s.setCompareText);
  const voices = useApp((s) => s.compareVoices);
  const takes = useApp((s) => s.compareTakes);
  const blind = useApp((s) => s.compareBlind);
  const order = useApp((s) => s.compareOrder);
  const revealed = useApp((s) => s.compareRevealed);
  const match = useApp((s) => s.compareMatch);
  const { setCompareVoice, addCompareVoice, removeCompareVoice, runCompare, setCompareBlind, revealCompare, setCompareMatch } =
    useApp.getState();
  const players = useRef(new Map<number, WaveSurfer>());
  const [active, setActive] = useState<number | null>(null);
  const loading = Object.values(takes).some((t) => t.status === 'loading');
  const length = codePoints(text);

  // One common level once every take is in (so no take is loaded twice); takes that are not a
  // 16-bit WAV, or silent, play as they are.
  const { target, gains } = useMemo(() => {
    const levels = new Map<number, TakeLevel>();
    for (const [slot, take] of Object.entries(takes)) {
      if (take.audio && take.peak !== undefined) levels.set(Number(slot), { lufs: take.audio.loudnessLufs, peak: take.peak });
    }
    const common = match && !loading ? matchTarget([...levels.values()]) : null;
    const gainOf = new Map([...levels].map(([slot, level]) => [slot, gainToTarget(level, common)]));
    return { target: common, gains: gainOf };
  }, [takes, match, loading]);

  const register = useCallback((index: number, ws: WaveSurfer | null) => {
    if (ws) players.current.set(index, ws);
    else players.current.delete(index);
  }, []);

  /** Plays row `index` from where the active row is now (or pauses it if it is the one playing). */
  const switchTo = useCallback(
    (index: number) => {
      const target = players.current.get(index);
      if (!target) return;
      if (active === index && target.isPlaying()) return target.pause();
      const from = active !== null ? players.current.get(active) : undefined;
      const position = from ? from.getCurrentTime() : target.getCurrentTime();
      players.current.forEach((ws, i) => i !== index && ws.pause());
      target.setTime(Math.min(position, Math.max(0, target.getDuration() - 0.05)));
      setActive(index);
      void target.play().catch(() => undefined);
    },
    [active],
  );

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      const target = event.target as HTMLElement | null;
      if (target && (target.tagName === 'TEXTAREA' || target.tagName === 'INPUT' || target.tagName === 'SELECT')) return;
      // keys count takes as listed, which a blind run has shuffled
      const slot = order[Number(event.key) - 1];
      if (slot !== undefined && takes[slot]?.status === 'ready') switchTo(slot);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [switchTo, takes, order]);

  const run = () => {
    players.current.forEach((ws) => ws.pause());
    setActive(null);
    void runCompare();
  };

  return (
    <section className="card compare" aria-labelledby="compare-title">
      <div className="compare-head">
        <h2 id="compare-title">Compare voices</h2>
        <span className="muted small">Switching keeps the position. Keys 1–{voices.length} switch.</span>
      </div>
      <label className="field">
        <span>
          Text{' '}
          <span className="muted small">
            ({formatCount(length)} of {formatCount(PREVIEW_MAX_CHARS)} characters)
          </span>
        </span>
        <textarea className="compare-text" value={text} onChange={(e) => setText(e.target.value)} rows={3} aria-label="Text to compare" />
      </label>
      <div className="compare-voices">
        {voices.map((voice, index) => (
          <div key={index} className="compare-slot">
            <span className="slot-number" aria-hidden="true">
              {index + 1}
            </span>
            <VoicePicker
              label={`Voice ${index + 1}`}
              value={voice}
              emptyLabel="Choose a voice…"
              onChange={(v) => setCompareVoice(index, v)}
            />
            <button
              type="button"
              className="icon ghost"
              onClick={() => removeCompareVoice(index)}
              disabled={voices.length <= COMPARE_MIN}
              aria-label={`Remove voice ${index + 1}`}
            >
              ×
            </button>
          </div>
        ))}
        <div className="compare-buttons">
          <label className="check" title="Each take played at one loudness, so no take wins for being louder">
            <input type="checkbox" checked={match} onChange={(e) => setCompareMatch(e.target.checked)} />
            Match loudness
          </label>
          <label className="check" title="Takes shuffled and their voices hidden until you reveal them">
            <input type="checkbox" checked={blind} onChange={(e) => setCompareBlind(e.target.checked)} />
            Blind
          </label>
          <button type="button" className="secondary" onClick={addCompareVoice} disabled={voices.length >= COMPARE_MAX}>
            Add voice
          </button>
          <button
            type="button"
            className="primary"
            onClick={run}
            disabled={loading || !text.trim() || length > PREVIEW_MAX_CHARS || voices.some((v) => !v)}
          >
            {loading ? 'Speaking…' : 'Compare'}
          </button>
        </div>
      </div>
      {length > PREVIEW_MAX_CHARS && (
        <p className="error" role="alert">
          Compare speaks up to {formatCount(PREVIEW_MAX_CHARS)} characters; shorten the text.
        </p>
      )}
      {Object.keys(takes).length === 0 && (
        <p className="empty">
          Choose two to four voices and press Compare. Each take gets its own waveform; play one, then switch to another at the same moment.
        </p>
      )}
      {!revealed && (
        <p className="blind-bar">
          <span>Blind: the takes are shuffled and their voices hidden.</span>
          <button type="button" className="secondary small" onClick={revealCompare}>
            Reveal voices
          </button>
        </p>
      )}
      {Object.keys(takes).length > 0 && (
        <div className="compare-session">
          <span className="muted small" data-testid="loudness-target">
            {!match
              ? 'Takes play at their own loudness.'
              : loading
                ? 'Loudness is matched once every take is in.'
                : target !== null
                  ? `Loudness matched: every take plays at ${formatLoudness(target)}.`
                  : 'No take has a loudness to match.'}
          </span>
          <CompareExport target={target} gains={gains} />
        </div>
      )}
      <ol className="takes" aria-label="Takes">
        {order.map((index, position) => {
          const voice = voices[index];
          const take = takes[index];
          return take && voice !== undefined ? (
            <CompareTakeRow
              key={`${index}-${voice}`}
              index={index}
              position={position}
              voiceId={voice}
              hidden={!revealed}
              take={take}
              active={active === index}
              gainDb={match && loading ? undefined : (gains.get(index) ?? 0)}
              onPlay={switchTo}
              register={register}
            />
          ) : null;
        })}
      </ol>
    </section>
  );
}
