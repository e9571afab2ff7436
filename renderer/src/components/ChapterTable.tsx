import { API, type Chapter, type Project } from '../api/contract';
import { useApp } from '../store';
import { ChapterActions } from './ChapterActions';
import { ChapterStatus } from './ChapterStatus';

interface Props {
  project: Project;
  /** Runs a request of the project's view: busy meanwhile, its error shown. */
  run(work: () => Promise<void>): void;
  onChange(project: Project): void;
  onError(error: unknown): void;
}

/** A project's chapters, under the headings of their parts: each one's status, Play when rendered, and its actions. */
export function ChapterTable({ project, run, onChange, onError }: Props) {
  const client = useApp((s) => s.client)!;

  const play = (chapter: Chapter) =>
    run(async () => {
      useApp.getState().playJob(await client.call(API.getJob, { params: { id: chapter.job_id! } }));
    });

  return (
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
  );
}
