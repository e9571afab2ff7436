import { useApp } from '../store';

interface Props {
  value: string;
  onChange(voiceId: string): void;
  label: string;
  /** Text of the empty choice; omitted: no empty choice. */
  emptyLabel?: string;
  id?: string;
}

/** A native select of every voice, favourites first, grouped by engine. */
export function VoicePicker({ value, onChange, label, emptyLabel, id }: Props) {
  const engines = useApp((s) => s.engines);
  const voices = useApp((s) => s.voices);
  const favourites = useApp((s) => s.favourites);
  const favouriteVoices = engines.flatMap((e) => voices[e.id] ?? []).filter((v) => favourites.includes(v.id));
  // Names often say the language already ("English (America)"); the tag tells variants apart.
  const describe = (name: string, language: string) => `${name} · ${language}`;

  return (
    <select id={id} aria-label={label} value={value} onChange={(e) => onChange(e.target.value)}>
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {favouriteVoices.length > 0 && (
        <optgroup label="★ Favourites">
          {favouriteVoices.map((v) => (
            <option key={`fav-${v.id}`} value={v.id}>
              {describe(v.name, v.language)}
            </option>
          ))}
        </optgroup>
      )}
      {engines
        .filter((e) => e.available)
        .map((e) => (
          <optgroup key={e.id} label={e.name}>
            {(voices[e.id] ?? [])
              .filter((v) => !favourites.includes(v.id))
              .map((v) => (
                <option key={v.id} value={v.id}>
                  {describe(v.name, v.language)}
                </option>
              ))}
          </optgroup>
        ))}
    </select>
  );
}
