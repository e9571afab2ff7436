import { useMemo } from 'react';
import type { Voice } from '../api/contract';
import { useApp } from '../store';
import { findVoice, sortVoices, voiceOptionLabel } from '../store/engines-slice';

interface Props {
  value: string;
  onChange(voiceId: string): void;
  label: string;
  /** Text of the empty choice; omitted: no empty choice. */
  emptyLabel?: string;
  id?: string;
}

/** A native select of every voice, favourites first, grouped by engine, by name within a group. */
export function VoicePicker({ value, onChange, label, emptyLabel, id }: Props) {
  const engines = useApp((s) => s.engines);
  const voices = useApp((s) => s.voices);
  const favourites = useApp((s) => s.favourites);
  // Memoized: the editor re-renders on every keystroke, and there are a thousand voices.
  const groups = useMemo(
    () => ({
      favourites: sortVoices(
        { engines },
        engines.flatMap((e) => voices[e.id] ?? []).filter((v) => favourites.includes(v.id)),
      ),
      engines: engines
        .filter((e) => e.available)
        .map((e) => ({
          engine: e,
          voices: sortVoices(
            { engines },
            (voices[e.id] ?? []).filter((v) => !favourites.includes(v.id)),
          ),
        })),
    }),
    [engines, voices, favourites],
  );
  const chosen = value ? findVoice({ engines, voices }, value) : undefined;
  const option = (v: Voice, key = v.id) => (
    <option key={key} value={v.id}>
      {voiceOptionLabel({ engines }, v)}
    </option>
  );

  return (
    <select
      id={id}
      aria-label={label}
      value={value}
      onChange={(e) => onChange(e.target.value)}
      title={chosen ? voiceOptionLabel({ engines }, chosen) : undefined}
    >
      {emptyLabel !== undefined && <option value="">{emptyLabel}</option>}
      {groups.favourites.length > 0 && <optgroup label="★ Favourites">{groups.favourites.map((v) => option(v, `fav-${v.id}`))}</optgroup>}
      {groups.engines.map(({ engine, voices: list }) => (
        <optgroup key={engine.id} label={engine.name}>
          {list.map((v) => option(v))}
        </optgroup>
      ))}
    </select>
  );
}
