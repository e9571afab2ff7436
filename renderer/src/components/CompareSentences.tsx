import type { CompareTake, JobTimings } from '../api/contract';
import { useApp } from '../store';

interface Props {
  timings: JobTimings;
  current: number;
  /** The take being listened to: its stars per sentence are shown. */
  activeTake: CompareTake | undefined;
  name: string;
  onPlay(sentence: number): void;
}

/** The text as sentences: play one on the active take, and rate it there (1–5 per sentence). */
export function CompareSentences({ timings, current, activeTake, name, onPlay }: Props) {
  const rateSentence = useApp((s) => s.rateSentence);
  return (
    <ol className="compare-sentences" aria-label="Sentences">
      {timings.sentences.map((sentence, n) => (
        <li key={n} aria-current={n === current ? 'true' : undefined} data-sentence={n}>
          <button type="button" className="link" onClick={() => onPlay(n)} aria-label={`Play sentence ${n + 1}: ${sentence.text}`}>
            {n + 1}. {sentence.text}
          </button>
          {activeTake && (
            <select
              aria-label={`Rating of sentence ${n + 1} on ${name}`}
              value={activeTake.sentence_ratings[n] ?? ''}
              onChange={(e) => rateSentence(activeTake.take_id, n, e.target.value ? Number(e.target.value) : null)}
            >
              <option value="">–</option>
              {[1, 2, 3, 4, 5].map((stars) => (
                <option key={stars} value={stars}>
                  {'★'.repeat(stars)}
                </option>
              ))}
            </select>
          )}
        </li>
      ))}
    </ol>
  );
}
