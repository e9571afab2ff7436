import { useState, type FormEvent } from 'react';
import { API, OPTION_RANGES, OUTPUT_FORMATS, type OutputFormat, type Project, type ProjectDisk } from '../api/contract';
import { formatBytes } from '../lib/format';
import { useApp } from '../store';
import { VoicePicker } from './VoicePicker';

interface Props {
  project: Project;
  disk: ProjectDisk | null;
  busy: boolean;
  run(work: () => Promise<void>): void;
  onChange(project: Project): void;
  onListChange(): void;
  onStatus(status: string): void;
}

const settingsOf = (p: Project) => ({ title: p.title, author: p.author, voice: p.voice, rate: p.rate, format: p.format });

/** A project's own settings (title, author, voice, rate, format), saved with Save settings. */
export function ProjectSettingsForm({ project, disk, busy, run, onChange, onListChange, onStatus }: Props) {
  const client = useApp((s) => s.client)!;
  const [form, setForm] = useState(settingsOf(project));
  const [formOf, setFormOf] = useState(project.updated_at);

  // the form follows the project's saved settings when they change, not at every poll
  if (formOf !== project.updated_at) {
    setFormOf(project.updated_at);
    setForm(settingsOf(project));
  }

  const save = (event: FormEvent) => {
    event.preventDefault();
    run(async () => {
      onChange(await client.call(API.changeProject, { params: { id: project.project_id }, body: form }));
      onListChange();
      onStatus('Settings saved.');
    });
  };

  const set =
    <K extends keyof typeof form>(field: K) =>
    (value: (typeof form)[K]) =>
      setForm((f) => ({ ...f, [field]: value }));

  return (
    <form className="project-settings" onSubmit={save} aria-label="Project settings">
      <label>
        Title
        <input value={form.title} onChange={(e) => set('title')(e.target.value)} required maxLength={200} />
      </label>
      <label>
        Author
        <input value={form.author} onChange={(e) => set('author')(e.target.value)} maxLength={200} />
      </label>
      <label>
        Voice
        <VoicePicker value={form.voice} onChange={set('voice')} label="Voice" />
      </label>
      <label>
        Rate
        <input
          type="number"
          min={OPTION_RANGES.rate.min}
          max={OPTION_RANGES.rate.max}
          step={0.05}
          value={form.rate}
          onChange={(e) => set('rate')(Number(e.target.value))}
        />
      </label>
      <label>
        Format
        <select value={form.format} onChange={(e) => set('format')(e.target.value as OutputFormat)}>
          {OUTPUT_FORMATS.map((f) => (
            <option key={f} value={f}>
              {disk ? `${f}: the book up to ${formatBytes(disk.formats[f])}` : f}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="secondary" disabled={busy}>
        Save settings
      </button>
    </form>
  );
}
