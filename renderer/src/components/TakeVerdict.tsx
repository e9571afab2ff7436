import { useApp } from '../store';

const STARS = [1, 2, 3, 4, 5];

/** The tester's verdict on one take: 1–5 stars and a note, kept with the session for its export. */
export function TakeVerdict({ index, name, rating, note }: { index: number; name: string; rating: number | null; note: string }) {
  const { rateTake, noteTake } = useApp.getState();
  return (
    <div className="take-verdict">
      <fieldset className="stars">
        <legend className="visually-hidden">Rating of {name}</legend>
        {STARS.map((stars) => (
          <label key={stars} className={rating !== null && stars <= rating ? 'lit' : undefined}>
            <input
              type="radio"
              className="visually-hidden"
              name={`rating-${index}`}
              value={stars}
              checked={rating === stars}
              onChange={() => rateTake(index, stars)}
            />
            <span aria-hidden="true">★</span>
            <span className="visually-hidden">
              {stars} {stars === 1 ? 'star' : 'stars'}
            </span>
          </label>
        ))}
      </fieldset>
      <input
        type="text"
        className="take-note"
        value={note}
        maxLength={500}
        placeholder="Note"
        aria-label={`Note on ${name}`}
        onChange={(e) => noteTake(index, e.target.value)}
      />
    </div>
  );
}
