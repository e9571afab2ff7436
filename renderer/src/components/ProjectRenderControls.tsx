import { API } from '../api/contract';
import type { Project } from '../api/contract';
import { formatTimeLeft, secondsLeft, type ProgressSample } from '../lib/throughput';
import { useApp } from '../store';

interface Props {
  project: Project;
  /** The project's render progress as the studio saw it change: for the time left. */
  samples: readonly ProgressSample[];
  busy: boolean;
  run(work: () => Promise<void>): void;
  onChange(project: Project): void;
  onStatus(status: string): void;
}

/**
 * Render, pause, resume and cancel the whole project, with its progress and time left. The main
 * button says what a click does: it never says "Up to date" while chapters render.
 */
export function ProjectRenderControls({ project, samples, busy, run, onChange, onStatus }: Props) {
  const client = useApp((s) => s.client)!;
  const { render } = project;
  const pending = project.chapters.filter((c) => c.needs_render);
  const cancelled = pending.filter((c) => c.status === 'cancelled').length;

  const renderNow = () =>
    run(async () => {
      const result = await client.call(API.renderProject, { params: { id: project.project_id } });
      onChange(result.project);
      const n = result.queued.length;
      const continued = result.queued.filter((q) => q.continued).length;
      const more = continued ? ` (${continued} ${continued === 1 ? 'continues' : 'continue'} where it stopped)` : '';
      onStatus(
        n === 0 ? 'Every chapter is up to date: nothing to synthesize.' : `Rendering ${n} ${n === 1 ? 'chapter' : 'chapters'}${more}.`,
      );
    });
  const act = (action: 'pause' | 'resume' | 'cancel', done: string) =>
    run(async () => {
      onChange(await client.call(API[`${action}Project`], { params: { id: project.project_id } }));
      onStatus(done);
    });

  const chapters = (n: number) => `${n} ${n === 1 ? 'chapter' : 'chapters'}`;
  const main =
    render.state === 'rendering'
      ? { label: `Rendering… ${render.chapters_done} of ${chapters(render.chapters_total)} done`, click: undefined }
      : render.state === 'paused'
        ? { label: 'Resume', click: () => act('resume', 'Rendering resumed.') }
        : pending.length > 0
          ? {
              label: cancelled === pending.length ? `Continue ${chapters(pending.length)}` : `Render ${chapters(pending.length)}`,
              click: renderNow,
            }
          : { label: 'Up to date', click: undefined };
  const underWay = render.state === 'rendering' || render.state === 'paused';

  return (
    <>
      <button type="button" className="primary" onClick={main.click} disabled={busy || !main.click}>
        {main.label}
      </button>
      {render.state === 'rendering' && (
        <button type="button" className="secondary" onClick={() => act('pause', 'Paused: what is rendered is kept.')} disabled={busy}>
          Pause
        </button>
      )}
      {underWay && (
        <button
          type="button"
          className="secondary"
          onClick={() => act('cancel', 'Cancelled: finished chunks are kept, and the next render continues from them.')}
          disabled={busy}
        >
          Cancel render
        </button>
      )}
      {underWay && <RenderProgress project={project} samples={samples} />}
    </>
  );
}

/** The render as a whole: its share done and, once measured, the time left. */
function RenderProgress({ project, samples }: { project: Project; samples: readonly ProgressSample[] }) {
  const { chunks_done: done, chunks_total: total, state } = project.render;
  const left = state === 'rendering' ? secondsLeft(samples, total) : null;
  const percent = total > 0 ? Math.floor((done / total) * 100) : 0;
  const label = `${percent}%${state === 'paused' ? ' · paused' : left === null ? '' : ` · ${formatTimeLeft(left)} left`}`;
  return (
    <span className="project-progress">
      <progress max={Math.max(1, total)} value={done} aria-label="Project progress" aria-valuetext={label} />
      <span className="muted small" data-testid="project-progress">
        {label}
      </span>
    </span>
  );
}
