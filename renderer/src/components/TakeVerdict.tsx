import type { CompareTake } from '../api/contract';
import { saveBlob } from '../lib/download';
import type { PlayedTake } from '../lib/played-takes';
import { useApp } from '../store';

const STARS = [1, 2, 3, 4, 5];

/** The listener's verdict on one take (1–5 stars, a note), saved with the session; and its download as heard. */
export function TakeVerdict({
  take,
  name,
  played,
  fileName,
}: {
  take: CompareTake;
  name: string;
  played: PlayedTake | undefined;
  fileName: string;
}) {
  const { rateTake, noteTake } = useApp.getState();
  const { rating, note, take_id: id } = take;
  return (
    <div className="take-verdict">
      <fieldset className="stars">
        <legend className="visually-hidden">Rating of {name}</legend>
        {STARS.map((stars) => (
          <label key={stars} className={rating !== null && stars <= rating ? 'lit' : undefined}>
            <input
              type="radio"
              className="visually-hidden"
              name={`rating-${id}`}
              value={stars}
              checked={rating === stars}
              onChange={() => rateTake(id, stars)}
            />
            <span aria-hidden="true">★</span>
            <span className="visually-hidden">
              {stars} {stars === 1 ? 'star' : 'stars'}
            </span>
          </label>
        ))}
      </fieldset>
      <input
        id={`note-${id}`}
        type="text"
        className="take-note"
        value={note}
        maxLength={500}
        placeholder="Note"
        aria-label={`Note on ${name}`}
        onChange={(e) => noteTake(id, e.target.value)}
      />
      <button
        type="button"
        className="secondary small"
        disabled={!played}
        onClick={() => played && saveBlob(played.blob, fileName)}
        aria-label={`Download ${name}`}
      >
        Download
      </button>
    </div>
  );
}
