import { formatCount } from '../lib/format';
import { useApp } from '../store';

/** One card per engine; an unavailable engine says why and how to get it. */
export function EngineCards() {
  const engines = useApp((s) => s.engines);
  const filterEngine = useApp((s) => s.filters.engine);
  const setFilters = useApp((s) => s.setFilters);
  if (engines.length === 0) return null;

  return (
    <ul className="engine-cards" aria-label="Engines">
      {engines.map((e) => (
        <li key={e.id} className={`card engine-card${e.available ? '' : ' unavailable'}${filterEngine === e.id ? ' selected' : ''}`}>
          <div className="engine-title">
            <h3>{e.name}</h3>
            <span className={`badge ${e.available ? 'badge-done' : 'badge-failed'}`}>{e.available ? 'Available' : 'Unavailable'}</span>
          </div>
          {e.available ? (
            <>
              <p className="muted small">
                {formatCount(e.voiceCount)} voices · {formatCount(e.languages.length)} languages
              </p>
              <button
                type="button"
                className="small ghost"
                aria-pressed={filterEngine === e.id}
                onClick={() => setFilters({ engine: filterEngine === e.id ? '' : e.id })}
              >
                {filterEngine === e.id ? 'Show all engines' : 'Show only these voices'}
              </button>
            </>
          ) : (
            <p className="small">{e.reason ?? 'This engine is not installed.'}</p>
          )}
        </li>
      ))}
    </ul>
  );
}
