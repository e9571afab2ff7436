import { useState } from 'react';
import type { SettingName } from '../api/contract';
import { inputLock, LockNote } from './LockNote';

/** One side of an entry: how its input is labelled and what it holds. */
interface Side {
  label: string;
  placeholder: string;
}

interface Props {
  setting: SettingName;
  title: string;
  hint?: string;
  value: Record<string, string>;
  onChange(value: Record<string, string>): void;
  pending: boolean;
  /** The flag that set it for this run: nothing to add or remove. */
  lockedBy: string | undefined;
  name: Side & { valid: RegExp; normalize?(name: string): string };
  target: Side;
  removeLabel(name: string): string;
}

/** A setting that maps names to values (engine → program, OpenAI voice → Orator voice): listed, added, removed. */
export function NameMap({ setting, title, hint, value, onChange, pending, lockedBy, name: nameSide, target, removeLabel }: Props) {
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
        {title} {pending && <span className="badge settings-restart">restart</span>}
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
