import type { VoiceFilters } from '../store/engines-slice';

interface Props {
  filters: VoiceFilters;
  onChange(patch: Partial<VoiceFilters>): void;
  languages: readonly { code: string; name: string }[];
  placeholder: string;
}

/** The search box and language menu that the Voices tab and compare's picker share. */
export function VoiceQueryFields({ filters, onChange, languages, placeholder }: Props) {
  return (
    <>
      <input
        type="search"
        aria-label="Search voices"
        placeholder={placeholder}
        value={filters.query}
        onChange={(e) => onChange({ query: e.target.value })}
      />
      <select aria-label="Language" value={filters.language} onChange={(e) => onChange({ language: e.target.value })}>
        <option value="">All languages</option>
        {languages.map((l) => (
          <option key={l.code} value={l.code}>
            {l.name}
          </option>
        ))}
      </select>
    </>
  );
}
