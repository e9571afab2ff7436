import { useState } from 'react';
import { inputLock, LockNote } from './LockNote';
import type { SectionProps } from './section';

/** One side of an entry: how its input is labelled and what it holds. */
interface Side {
  label: string;
  placeholder: string;
}

interface Props {
  setting: 'engine_executables' | 'openai_voices';
  section: SectionProps;
  title: string;
  hint?: string;
  name: Side & { valid: RegExp; normalize?(name: string): string };
  target: Side;
  removeLabel(name: string): string;
}

/** A setting that maps names to values (engine → program, OpenAI voice → Orator voice): listed, added, removed. */
export function NameMap({ setting, section, title, hint, name: nameSide, target, removeLabel }: Props) {
  const value = section.draft[setting];
  const onChange = (next: Record<string, string>) => section.set(setting, next);
  const lockedBy = section.lockedBy(setting);
  const [name, setName] = useState('');
  const [entry, setEntry] = useState('');
  const key = nameSide.normalize ? nameSide.normalize(name.trim()) : name.trim();

  const add = () => {
    onChange({ ...value, [key]: entry.trim() });
    setName('');
    setEntry('');
  };
  const remove = (gone: string) => onChange(Object.fromEntries(Object.entries(value).filter(([k]) => k !== gone)));
  const lock = inputLock(lockedBy, setting);

  return (
    <div className="field">
      <span>
        {title} {section.pending(setting) && <span className="badge settings-restart">restart</span>}
      </span>
      {Object.entries(value).map(([k, v]) => (
        <div className="settings-row" key={k}>
          <span className="mono">{k}</span>
          <span className="mono settings-path">{v}</span>
          <button type="button" className="ghost small" onClick={() => remove(k)} aria-label={removeLabel(k)} {...lock}>
            Remove
          </button>
        </div>
      ))}
      <div className="settings-row">
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder={nameSide.placeholder}
          aria-label={nameSide.label}
          spellCheck={false}
          {...lock}
        />
        <input
          value={entry}
          onChange={(e) => setEntry(e.target.value)}
          placeholder={target.placeholder}
          aria-label={target.label}
          spellCheck={false}
          {...lock}
        />
        <button
          type="button"
          className="secondary small"
          disabled={lock.disabled || !nameSide.valid.test(key) || !entry.trim()}
          onClick={add}
        >
          Add
        </button>
      </div>
      {hint && <span className="muted small">{hint}</span>}
      <LockNote name={setting} by={lockedBy} />
    </div>
  );
}
