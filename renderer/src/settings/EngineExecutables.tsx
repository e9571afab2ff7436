import { useState } from 'react';

interface Props {
  value: Record<string, string>;
  onChange(value: Record<string, string>): void;
  pending: boolean;
}

/** Executables of system engines that are not on PATH, by engine id (e.g. piper → /opt/piper/piper). */
export function EngineExecutables({ value, onChange, pending }: Props) {
  const [engine, setEngine] = useState('');
  const [file, setFile] = useState('');
  const id = engine.trim().toLowerCase();

  const add = () => {
    onChange({ ...value, [id]: file.trim() });
    setEngine('');
    setFile('');
  };
  const remove = (name: string) => onChange(Object.fromEntries(Object.entries(value).filter(([key]) => key !== name)));

  return (
    <div className="field">
      <span>Engine executables {pending && <span className="badge settings-restart">restart</span>}</span>
      {Object.entries(value).map(([name, path]) => (
        <div className="settings-row" key={name}>
          <span className="mono">{name}</span>
          <span className="mono settings-path">{path}</span>
          <button type="button" className="ghost small" onClick={() => remove(name)} aria-label={`Remove the executable of ${name}`}>
            Remove
          </button>
        </div>
      ))}
      <div className="settings-row">
        <input
          value={engine}
          onChange={(e) => setEngine(e.target.value)}
          placeholder="engine id, e.g. piper"
          aria-label="Engine id"
          spellCheck={false}
        />
        <input
          value={file}
          onChange={(e) => setFile(e.target.value)}
          placeholder="/path/to/executable"
          aria-label="Executable path"
          spellCheck={false}
        />
        <button type="button" className="secondary small" disabled={!/^[a-z0-9-]+$/.test(id) || !file.trim()} onClick={add}>
          Add
        </button>
      </div>
    </div>
  );
}
