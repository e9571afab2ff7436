import { VoiceQueryFields } from './VoiceQueryFields';
import { useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { formatCount } from '../lib/format';
import { useApp } from '../store';
import { filterVoices, languageOptions, type Gender } from '../store/engines-slice';
import { EngineList } from './EngineList';
import { VoiceTable } from './VoiceTable';

export function VoiceBrowser() {
  const status = useApp((s) => s.enginesStatus);
  const error = useApp((s) => s.enginesError);
  const loadEngines = useApp((s) => s.loadEngines);
  const filters = useApp((s) => s.filters);
  const setFilters = useApp((s) => s.setFilters);
  const engines = useApp((s) => s.engines);
  const voicesByEngine = useApp((s) => s.voices);
  const favourites = useApp((s) => s.favourites);
  const voices = useApp(useShallow(filterVoices));
  const languages = useMemo(() => languageOptions({ engines, voices: voicesByEngine }), [engines, voicesByEngine]);
  const anyGender = useMemo(() => Object.values(voicesByEngine).some((list) => list.some((v) => v.gender)), [voicesByEngine]);

  return (
    <div className="voices-page">
      <EngineList />

      <section className="card voice-browser" aria-labelledby="voices-title">
        <div className="voices-head">
          <h2 id="voices-title">Voices</h2>
          <span className="muted small" role="status" data-testid="voice-count">
            {formatCount(voices.length)} {voices.length === 1 ? 'voice' : 'voices'}
          </span>
        </div>

        <div className="filters" role="search">
          <VoiceQueryFields filters={filters} onChange={setFilters} languages={languages} placeholder="Search name, language, id" />
          <select
            aria-label="Gender"
            value={filters.gender}
            onChange={(e) => setFilters({ gender: e.target.value as Gender })}
            title={anyGender ? undefined : 'The installed engines do not report the gender of their voices.'}
          >
            <option value="">Any gender</option>
            <option value="female">Female</option>
            <option value="male">Male</option>
          </select>
          <label className="check">
            <input type="checkbox" checked={filters.favouritesOnly} onChange={(e) => setFilters({ favouritesOnly: e.target.checked })} />
            Favourites ({favourites.length})
          </label>
        </div>

        {status === 'error' && (
          <p className="error" role="alert">
            {error}{' '}
            <button type="button" className="link" onClick={() => void loadEngines()}>
              Try again
            </button>
          </p>
        )}
        {status === 'loading' && (
          <p className="muted" role="status">
            Loading voices…
          </p>
        )}
        {status === 'ready' && voices.length === 0 && (
          <p className="empty">
            No voice matches these filters.
            {filters.gender && !anyGender && ' The installed engines do not report the gender of their voices.'}
          </p>
        )}
        {voices.length > 0 && <VoiceTable voices={voices} />}
      </section>
    </div>
  );
}
