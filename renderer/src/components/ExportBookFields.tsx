import type { Dispatch, SetStateAction } from 'react';
import type { ExportRequest, Job } from '../api/contract';
import { formatClock } from '../lib/format';
import { jobTitle } from '../store/jobs-slice';

/** What the book is made of: which jobs, its title and author, and where its chapters start. */
export interface BookChoices {
  jobIds: string[];
  title: string;
  author: string;
  chapters: 'auto' | 'jobs';
}

export const NO_BOOK: BookChoices = { jobIds: [], title: '', author: '', chapters: 'auto' };

/** The request's fields for the book's title, author and chapters; a blank title or author is left to the gateway. */
export function bookFields({ title, author, chapters }: BookChoices): Pick<ExportRequest, 'title' | 'author' | 'chapters'> {
  return { chapters, ...(title.trim() ? { title: title.trim() } : {}), ...(author.trim() ? { author: author.trim() } : {}) };
}

interface Props {
  /** The finished jobs to choose from, in book order (oldest first). */
  jobs: Job[];
  book: BookChoices;
  setBook: Dispatch<SetStateAction<BookChoices>>;
}

/** The book's jobs (checked in a list), title, author and chapters, as the export dialog asks for them. */
export function ExportBookFields({ jobs, book, setBook }: Props) {
  const change = (patch: Partial<BookChoices>) => setBook((b) => ({ ...b, ...patch }));
  const toggle = (id: string, on: boolean) => setBook((b) => ({ ...b, jobIds: on ? [...b.jobIds, id] : b.jobIds.filter((x) => x !== id) }));

  return (
    <>
      <ul className="export-jobs">
        {jobs.map((j) => (
          <li key={j.job_id}>
            <label>
              <input type="checkbox" checked={book.jobIds.includes(j.job_id)} onChange={(e) => toggle(j.job_id, e.target.checked)} />{' '}
              {jobTitle(j)} <span className="muted small">{formatClock(j.audio!.duration_s)}</span>
            </label>
          </li>
        ))}
      </ul>
      <label>
        Title <input value={book.title} maxLength={200} onChange={(e) => change({ title: e.target.value })} />
      </label>
      <label>
        Author <input value={book.author} maxLength={200} onChange={(e) => change({ author: e.target.value })} />
      </label>
      <label>
        Chapters{' '}
        <select value={book.chapters} onChange={(e) => change({ chapters: e.target.value as BookChoices['chapters'] })}>
          <option value="auto">From headings and jobs</option>
          <option value="jobs">One per job</option>
        </select>
      </label>
    </>
  );
}
