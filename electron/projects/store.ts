import type { OutputFormat } from '../contract';
import type { Db } from '../storage/database';
import type { SentenceEdit } from './edits';

export interface ProjectSettings {
  title: string;
  author: string;
  voice: string;
  rate: number;
  pitch: number;
  volume: number;
  format: OutputFormat;
}

export interface ProjectRow extends ProjectSettings {
  id: string;
  source_name: string;
  created_at: string;
  updated_at: string;
}

export interface ChapterRow {
  idx: number;
  title: string;
  text: string;
  /** The job that rendered it; null before a render, after its text changed, or once the job was deleted. */
  job_id: string | null;
  /** What it was rendered from (render-key.ts); null with no job. */
  render_key: string | null;
  /** Its sentence edits (edits.ts): applied ones in order, then stale ones. */
  edits: SentenceEdit[];
}

export type NewChapter = Omit<ChapterRow, 'idx'>;

/** Projects and their chapters in SQLite; the meaning of a render stays with the service. */
export class ProjectStore {
  constructor(private readonly db: Db) {}

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM projects').get() as { n: number }).n;
  }

  /** Newest change first, each with its number of chapters. */
  list(): (ProjectRow & { chapter_count: number })[] {
    return this.db
      .prepare(
        `SELECT p.*, (SELECT count(*) FROM project_chapters c WHERE c.project_id = p.id) AS chapter_count
         FROM projects p ORDER BY updated_at DESC, id`,
      )
      .all() as (ProjectRow & { chapter_count: number })[];
  }

  get(id: string): ProjectRow | undefined {
    return this.db.prepare('SELECT * FROM projects WHERE id = ?').get(id) as ProjectRow | undefined;
  }

  chapters(id: string): ChapterRow[] {
    const rows = this.db
      .prepare('SELECT idx, title, text, job_id, render_key, edits FROM project_chapters WHERE project_id = ? ORDER BY idx')
      .all(id) as (Omit<ChapterRow, 'edits'> & { edits: string })[];
    return rows.map((row) => ({ ...row, edits: JSON.parse(row.edits) as SentenceEdit[] }));
  }

  /** The project and chapter a job renders, if it renders one. */
  chapterOfJob(jobId: string): { project_id: string; idx: number } | undefined {
    return this.db.prepare('SELECT project_id, idx FROM project_chapters WHERE job_id = ?').get(jobId) as
      { project_id: string; idx: number } | undefined;
  }

  /** The title of the chapter a job renders, if it renders one. */
  chapterTitleOfJob(jobId: string): string | undefined {
    const row = this.db.prepare('SELECT title FROM project_chapters WHERE job_id = ?').get(jobId) as { title: string } | undefined;
    return row?.title;
  }

  insert(project: ProjectRow, chapters: NewChapter[]): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO projects (id, title, author, voice, rate, pitch, volume, format, source_name, created_at, updated_at)
           VALUES (@id, @title, @author, @voice, @rate, @pitch, @volume, @format, @source_name, @created_at, @updated_at)`,
        )
        .run(project);
      this.insertChapters(project.id, chapters);
    })();
  }

  updateSettings(id: string, settings: ProjectSettings, now: string): void {
    this.db
      .prepare(
        `UPDATE projects SET title = @title, author = @author, voice = @voice, rate = @rate, pitch = @pitch, volume = @volume,
         format = @format, updated_at = @now WHERE id = @id`,
      )
      .run({ ...settings, id, now });
  }

  /** The project's chapters, all replaced at once. */
  replaceChapters(id: string, sourceName: string, chapters: NewChapter[], now: string): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM project_chapters WHERE project_id = ?').run(id);
      this.insertChapters(id, chapters);
      this.db.prepare('UPDATE projects SET source_name = ?, updated_at = ? WHERE id = ?').run(sourceName, now, id);
    })();
  }

  /** A chapter's edits changed; `renderKey`: its audio has them (it was up to date, and stays so), else null to keep its key. */
  recordEdits(id: string, idx: number, edits: SentenceEdit[], renderKey: string | null): void {
    this.db
      .prepare('UPDATE project_chapters SET edits = ?, render_key = COALESCE(?, render_key) WHERE project_id = ? AND idx = ?')
      .run(JSON.stringify(edits), renderKey, id, idx);
  }

  recordRender(id: string, idx: number, jobId: string, renderKey: string): void {
    this.db
      .prepare('UPDATE project_chapters SET job_id = ?, render_key = ? WHERE project_id = ? AND idx = ?')
      .run(jobId, renderKey, id, idx);
  }

  delete(id: string): void {
    this.db.prepare('DELETE FROM projects WHERE id = ?').run(id);
  }

  private insertChapters(id: string, chapters: NewChapter[]): void {
    const insert = this.db.prepare(
      'INSERT INTO project_chapters (project_id, idx, title, text, job_id, render_key, edits) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    chapters.forEach((chapter, idx) =>
      insert.run(id, idx, chapter.title, chapter.text, chapter.job_id, chapter.render_key, JSON.stringify(chapter.edits)),
    );
  }
}
