import { saveBlob } from '../lib/download';
import { sessionCsv, sessionFileName, sessionJson, type CompareSession } from '../lib/compare-export';
import { useApp, type Store } from '../store';
import { takeLetter } from '../store/compare-slice';
import { voiceLabel } from '../store/engines-slice';

interface Props {
  /** The common loudness the takes play at; null when not matched. */
  target: number | null;
  gains: ReadonlyMap<number, number>;
}

/**
 * Saves the session (CSV or JSON): each take's voice, settings, rating, note and loudness. A blind
 * run exports once revealed: the file names the voices, and the tester should not see them sooner.
 */
export function CompareExport({ target, gains }: Props) {
  const ready = useApp((s) => Object.values(s.compareTakes).some((t) => t.status === 'ready'));
  const revealed = useApp((s) => s.compareRevealed);
  const save = (kind: 'csv' | 'json') => {
    const session = compareSession(useApp.getState(), target, gains);
    saveBlob(kind === 'csv' ? sessionCsv(session) : sessionJson(session), sessionFileName(kind));
  };
  const disabled = !ready || !revealed;
  const why = revealed ? undefined : 'Reveal the voices to export: the file names them';
  return (
    <div className="compare-export">
      <button type="button" className="secondary small" onClick={() => save('csv')} disabled={disabled} title={why}>
        Export CSV
      </button>
      <button type="button" className="secondary small" onClick={() => save('json')} disabled={disabled} title={why}>
        Export JSON
      </button>
    </div>
  );
}

export function compareSession(state: Store, target: number | null, gains: ReadonlyMap<number, number>): CompareSession {
  const run = state.compareRun ?? { text: state.compareText, rate: state.rate, pitch: state.pitch, volume: state.volume, blind: false };
  const { blind } = run;
  return {
    exported_at: new Date().toISOString(),
    text: run.text,
    settings: { rate: run.rate, pitch: run.pitch, volume: run.volume },
    blind,
    loudness_matched: state.compareMatch,
    loudness_target_lufs: state.compareMatch ? target : null,
    takes: state.compareOrder.flatMap((slot, position) => {
      const take = state.compareTakes[slot];
      const voice = state.compareVoices[slot];
      if (!take?.audio || voice === undefined) return [];
      return [
        {
          position: position + 1,
          label: blind ? takeLetter(position) : String(position + 1),
          voice: take.audio.voice || voice,
          voice_name: voiceLabel(state, voice),
          engine: take.audio.engine,
          rating: take.rating,
          note: take.note,
          duration_s: take.audio.durationS,
          loudness_lufs: take.audio.loudnessLufs,
          gain_db: Math.round((gains.get(slot) ?? 0) * 100) / 100,
        },
      ];
    }),
  };
}
