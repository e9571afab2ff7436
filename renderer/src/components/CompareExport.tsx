import { zipSync } from 'fflate';
import type { CompareSession as Session } from '../api/contract';
import { saveBlob } from '../lib/download';
import { sessionCsv, sessionFileName, sessionJson, takeFileName, type CompareSession } from '../lib/compare-export';
import { pairwiseRanking } from '../lib/pairwise';
import { playedTakes } from '../lib/played-takes';
import { useApp, type Store } from '../store';
import { takeLetter } from '../store/compare-slice';
import { voiceLabel } from '../store/engines-slice';

/**
 * Saves the session: CSV or JSON (every take's voice, verdicts, ranking and loudness) and a ZIP of
 * its takes, raw and loudness-matched. A blind session exports once revealed: the files name the
 * voices, and the listener should not see them sooner.
 */
export function CompareExport({ session }: { session: Session }) {
  const ready = session.takes.some((t) => t.status === 'ready');
  const save = async (kind: 'csv' | 'json' | 'zip') => {
    await useApp.getState().flushCompareVerdicts();
    const state = useApp.getState();
    if (kind === 'zip') return saveBlob(await takesZip(state, session), sessionFileName(session.name, 'zip'));
    const data = exported(state, session);
    saveBlob(kind === 'csv' ? sessionCsv(data) : sessionJson(data), sessionFileName(session.name, kind));
  };
  const disabled = !ready || !session.revealed;
  const why = session.revealed ? undefined : 'Reveal the voices to export: the files name them';
  return (
    <div className="compare-export">
      {(['csv', 'json', 'zip'] as const).map((kind) => (
        <button key={kind} type="button" className="secondary small" onClick={() => void save(kind)} disabled={disabled} title={why}>
          Export {kind === 'zip' ? 'takes (ZIP)' : kind.toUpperCase()}
        </button>
      ))}
    </div>
  );
}

/** Each text's takes in listening order, with how they were played. */
function byText(state: Store, session: Session) {
  return session.texts.map((_, text) => {
    const takes = session.order.flatMap((id) => session.takes.filter((t) => t.take_id === id && t.text_index === text));
    return { takes, ...playedTakes(takes, state.compareAudio, { match: state.compareMatch, hidden: false }) };
  });
}

export function exported(state: Store, session: Session): CompareSession {
  const texts = byText(state, session);
  return {
    name: session.name,
    exported_at: new Date().toISOString(),
    texts: session.texts,
    settings: { rate: session.rate, pitch: session.pitch, volume: session.volume },
    blind: session.blind,
    loudness_matched: state.compareMatch,
    loudness_target_lufs: texts[0]?.target ?? null,
    takes: texts.flatMap(({ takes, played }, text) => {
      const ranking = pairwiseRanking(
        takes.filter((t) => t.status === 'ready').map((t) => t.take_id),
        session.pairs,
      );
      return takes.flatMap((take, position) =>
        take.status !== 'ready'
          ? []
          : [
              {
                position: position + 1,
                label: session.blind ? takeLetter(position) : String(position + 1),
                text_index: text + 1,
                voice: take.voice,
                voice_name: voiceLabel(state, take.voice),
                engine: take.engine ?? '',
                rating: take.rating,
                note: take.note,
                sentence_ratings: take.sentence_ratings,
                pairwise_rank: ranking ? ranking.indexOf(take.take_id) + 1 : null,
                duration_s: take.duration_s ?? 0,
                loudness_lufs: take.loudness_lufs ?? null,
                gain_db: Math.round((played.get(take.take_id)?.gainDb ?? 0) * 100) / 100,
              },
            ],
      );
    }),
  };
}

/** raw/ as synthesized and matched/ at the common loudness, each take named by text, place and voice. */
async function takesZip(state: Store, session: Session): Promise<Blob> {
  const files: Record<string, Uint8Array> = {};
  for (const [text, { takes }] of byText(state, session).entries()) {
    const matched = playedTakes(takes, state.compareAudio, { match: true, hidden: false }).played;
    for (const [position, take] of takes.entries()) {
      const raw = state.compareAudio[take.take_id];
      const heard = matched.get(take.take_id);
      if (!raw || !heard) continue;
      const name = takeFileName({ name: `text-${text + 1}-${position + 1}` }, take.voice);
      files[`raw/${name}`] = new Uint8Array(raw.file);
      files[`matched/${name}`] = new Uint8Array(await heard.blob.arrayBuffer());
    }
  }
  return new Blob([zipSync(files, { level: 0 })], { type: 'application/zip' });
}
