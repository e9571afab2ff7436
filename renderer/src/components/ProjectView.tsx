import { useEffect, useState, type FormEvent } from 'react';
import { API, OPTION_RANGES, OUTPUT_FORMATS, type Chapter, type OutputFormat, type Project } from '../api/contract';
import type { ProgressSample } from '../lib/throughput';
import { formatBytes } from '../lib/format';
import { useApp } from '../store';
import { ChapterEdits } from './ChapterEdits';
import { ChapterStatus } from './ChapterStatus';
import { ChapterActions } from './ChapterActions';
import { ImportReportNote } from './ImportReportNote';
import { ProjectExport } from './ProjectExport';
import { ProjectRenderControls } from './ProjectRenderControls';
import { RenderDisk } from './RenderDisk';
import { useProjectDisk } from './use-project-disk';
import { useRenderPlan } from './use-render-plan';
import { VoicePicker } from './VoicePicker';

interface Props {
  project: Project;
  /** Its render's progress as seen changing (ProjectsPanel), for the time left. */
  samples: readonly ProgressSample[];
  /** The project as it is now; null once deleted. */
  onChange(project: Project | null): void;
  /** Its title, author or existence changed: the list shows them. */
  onListChange(): void;
  onError(error: unknown): void;
}

/** How often a project with chapters rendering is read again. */
const POLL_MS = 1000;

const settingsOf = (p: Project) => ({ title: p.title, author: p.author, voice: p.voice, rate: p.rate, format: p.format });

/** One project: its settings, Render (saying how many chapters it will synthesize), and its chapters. */
export function ProjectView({ project, samples, onChange, onListChange, onError }: Props) {
  const client = useApp((s) => s.client)!;
  const [form, setForm] = useState(settingsOf(project));
  const [formOf, setFormOf] = useState(project.updated_at);
  const [status, setStatus] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const active = project.render.state === 'rendering';
  // a sentence of one of its chapters edited in the player: the chapter now has the edit
  const played = useApp((s) => (s.current?.kind === 'job' ? s.current : null));
  const pending = project.chapters.filter((c) => c.needs_render).length;
  const disk = useProjectDisk(project, onError);
  const plan = useRenderPlan(project, onError);

  // the form follows the project's saved settings when they change, not at every poll
  if (formOf !== project.updated_at) {
    setFormOf(project.updated_at);
    setForm(settingsOf(project));
  }

  // While chapters render, their status and progress are read again each second.
  useEffect(() => {
    if (!active) return;
    const timer = setTimeout(() => client.call(API.getProject, { params: { id: project.project_id } }).then(onChange, onError), POLL_MS);
    return () => clearTimeout(timer);
  }, [active, client, project, onChange, onError]);

  useEffect(() => {
    if (!played || !project.chapters.some((c) => c.job_id === played.jobId)) return;
    client.call(API.getProject, { params: { id: project.project_id } }).then(onChange, onError);
    // on each new source only (a sentence edit plays the job again)
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [played?.key]);

  const run = (work: () => Promise<void>) => {
    setBusy(true);
    work()
      .catch(onError)
      .finally(() => setBusy(false));
  };

  const save = (event: FormEvent) => {
    event.preventDefault();
    run(async () => {
      onChange(await client.call(API.changeProject, { params: { id: project.project_id }, body: form }));
      onListChange();
      setStatus('Settings saved.');
    });
  };

  const play = (chapter: Chapter) =>
    run(async () => {
      useApp.getState().playJob(await client.call(API.getJob, { params: { id: chapter.job_id! } }));
    });

  const remove = () => {
    if (!window.confirm(`Delete the project “${project.title}” and the audio of its chapters?`)) return;
    run(async () => {
      await client.call(API.deleteProject, { params: { id: project.project_id } });
      onChange(null);
      onListChange();
    });
  };

  const set =
    <K extends keyof typeof form>(field: K) =>
    (value: (typeof form)[K]) =>
      setForm((f) => ({ ...f, [field]: value }));

  return (
    <div className="card project-view">
      <h2>{project.title}</h2>
      <p className="hint">
        From {project.source_name} · {project.chapters.length} {project.chapters.length === 1 ? 'chapter' : 'chapters'}
      </p>
      <ImportReportNote project={project} />
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
      <div className="project-actions">
        <ProjectRenderControls project={project} samples={samples} busy={busy} run={run} onChange={onChange} onStatus={setStatus} />
        {plan && pending > 0 && project.render.state !== 'rendering' && (
          <span className="hint" data-testid="render-plan" title={plan.chapters.flatMap((c) => c.texts).join('\n')}>
            To synthesize: {plan.summary}
          </span>
        )}
        {disk && pending > 0 && <RenderDisk disk={disk} format={project.format} />}
        <button
          type="button"
          className="secondary small"
          onClick={() => useApp.getState().openLexiconFor({ voice: project.voice, project: project.title })}
        >
          Pronunciations…
        </button>
        <button type="button" className="secondary danger small" onClick={remove} disabled={busy}>
          Delete project
        </button>
      </div>
      {status && (
        <p role="status" className="hint">
          {status}
        </p>
      )}
      <ProjectExport project={project} disk={disk} onError={onError} />
      <table className="chapter-table">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Chapter</th>
            <th scope="col">Characters</th>
            <th scope="col">Status</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {project.chapters.map((chapter, i) => [
            chapter.part !== undefined && chapter.part !== project.chapters[i - 1]?.part && (
              <tr key={`part-${chapter.index}`} className="part-row">
                <th scope="rowgroup" colSpan={5}>
                  {chapter.part}
                </th>
              </tr>
            ),
            <tr key={chapter.index} className={chapter.excluded ? 'excluded' : undefined}>
              <td>{chapter.index + 1}</td>
              <td>
                {chapter.title}
                {chapter.front_matter && <span className="tag">front matter</span>}
                {chapter.excluded && <span className="tag">left out</span>}
              </td>
              <td>{chapter.characters.toLocaleString()}</td>
              <td>
                <ChapterStatus chapter={chapter} />
              </td>
              <td>
                {chapter.status === 'done' && (
                  <button type="button" className="small secondary" onClick={() => play(chapter)} aria-label={`Play ${chapter.title}`}>
                    Play
                  </button>
                )}
                <ChapterActions project={project} chapter={chapter} onChange={onChange} onError={onError} />
              </td>
            </tr>,
          ])}
        </tbody>
      </table>
      <ChapterEdits project={project} onChange={onChange} onError={onError} />
    </div>
  );
}
