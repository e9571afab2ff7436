import { formatCount } from '../lib/format';
import { useApp } from '../store';

/** Engines as a filter: available ones narrow the voice list; unavailable ones say why and how to get them. */
export function EngineList() {
  const engines = useApp((s) => s.engines);
  const selected = useApp((s) => s.filters.engine);
  const setFilters = useApp((s) => s.setFilters);
  const available = engines.filter((e) => e.available);
  const missing = engines.filter((e) => !e.available);
  const total = available.reduce((n, e) => n + e.voiceCount, 0);

  return (
    <nav className="card engine-list" aria-labelledby="engines-title">
      <h2 id="engines-title">Engines</h2>
      <ul>
        <li>
          <button type="button" className="engine-item" aria-pressed={selected === ''} onClick={() => setFilters({ engine: '' })}>
            <span>All engines</span>
            <span className="muted small">{formatCount(total)}</span>
          </button>
        </li>
        {available.map((e) => (
          <li key={e.id}>
            <button type="button" className="engine-item" aria-pressed={selected === e.id} onClick={() => setFilters({ engine: e.id })}>
              <span>{e.name}</span>
              <span className="muted small">{formatCount(e.voiceCount)}</span>
            </button>
          </li>
        ))}
      </ul>
      {missing.length > 0 && (
        <details className="missing-engines">
          <summary>Not installed ({missing.length})</summary>
          <ul>
            {missing.map((e) => (
              <li key={e.id} className="missing-engine">
                <strong>{e.name}</strong>
                <p className="muted small">{e.reason ?? 'This engine is not installed.'}</p>
              </li>
            ))}
          </ul>
        </details>
      )}
    </nav>
  );
}
