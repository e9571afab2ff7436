import { VoiceQueryFields } from './VoiceQueryFields';
import { useMemo, useState } from 'react';
import { COMPARE_LIMITS, type QualityTier } from '../api/contract';
import { languageName } from '../lib/languages';
import { useApp } from '../store';
import { filterVoices, languageOptions, voiceOptionLabel, type VoiceFilters } from '../store/engines-slice';

/** Shown at once: enough to scan, few enough to render at every keystroke. */
const SHOWN = 40;

/** The engines' quality tiers, as a listener hears them. */
const QUALITIES: [QualityTier, string][] = [
  ['high', 'Natural (neural)'],
  ['medium', 'Medium'],
  ['low', 'Robotic'],
];

/**
 * A searchable voice picker for compare: by name, tag, language, engine or quality, favourites only, and
 * "all voices of this language"; a result adds its voice to the session (up to 24).
 */
export function VoiceSearch() {
  const engines = useApp((s) => s.engines);
  const voices = useApp((s) => s.voices);
  const favourites = useApp((s) => s.favourites);
  const chosen = useApp((s) => s.compareVoices);
  const add = useApp((s) => s.addCompareVoices);
  const [filters, setFilters] = useState<VoiceFilters>({ engine: '', language: '', gender: '', query: '', favouritesOnly: false });
  const [quality, setQuality] = useState<QualityTier | ''>('');
  const change = (patch: Partial<VoiceFilters>) => setFilters((f) => ({ ...f, ...patch }));
  const languages = useMemo(() => languageOptions({ engines, voices }), [engines, voices]);
  const matches = useMemo(
    () =>
      filterVoices({ engines, voices, favourites, filters }).filter((v) => !chosen.includes(v.id) && (!quality || v.quality === quality)),
    [engines, voices, favourites, filters, chosen, quality],
  );
  const room = COMPARE_LIMITS.voices - chosen.length;

  return (
    <div className="voice-search" role="group" aria-label="Find voices">
      <div className="voice-search-filters">
        <VoiceQueryFields filters={filters} onChange={change} languages={languages} placeholder="Search voices: name, language, engine…" />
        <select aria-label="Engine" value={filters.engine} onChange={(e) => change({ engine: e.target.value })}>
          <option value="">All engines</option>
          {engines
            .filter((e) => e.available)
            .map((e) => (
              <option key={e.id} value={e.id}>
                {e.name}
              </option>
            ))}
        </select>
        <select aria-label="Quality" value={quality} onChange={(e) => setQuality(e.target.value as QualityTier | '')}>
          <option value="">Any quality</option>
          {QUALITIES.map(([tier, label]) => (
            <option key={tier} value={tier}>
              {label}
            </option>
          ))}
        </select>
        <label className="check">
          <input type="checkbox" checked={filters.favouritesOnly} onChange={(e) => change({ favouritesOnly: e.target.checked })} />
          Favourites
        </label>
        {filters.language && (
          <button
            type="button"
            className="secondary small"
            disabled={matches.length === 0 || room <= 0}
            onClick={() => add(matches.map((v) => v.id))}
          >
            Add all {Math.min(matches.length, room)} {languageName(filters.language)} voices
          </button>
        )}
      </div>
      <ul className="voice-results" aria-label="Matching voices">
        {matches.slice(0, SHOWN).map((voice) => (
          <li key={voice.id} data-voice={voice.id}>
            <span>
              {favourites.includes(voice.id) ? '★ ' : ''}
              {voiceOptionLabel({ engines }, voice)}
            </span>
            <button
              type="button"
              className="secondary small"
              disabled={room <= 0}
              onClick={() => add([voice.id])}
              aria-label={`Add ${voiceOptionLabel({ engines }, voice)}`}
            >
              Add
            </button>
          </li>
        ))}
      </ul>
      <p className="muted small" aria-live="polite">
        {matches.length > SHOWN ? `${matches.length} voices match; the first ${SHOWN} are shown.` : `${matches.length} voices match.`}
        {room <= 0 ? ` A session holds ${COMPARE_LIMITS.voices} voices.` : ''}
      </p>
    </div>
  );
}
