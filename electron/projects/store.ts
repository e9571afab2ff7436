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
  /** BCP 47 from the book's file, or ''. */
  language: string;
  has_cover: boolean;
  /** The last import's report (ImportReport, JSON), or null for a project made before reports. */
  import_report: string | null;
}

/** What an import brings besides the chapters. */
export interface ImportedBook {
  source_name: string;
  language: string;
  cover: Uint8Array | null;
  import_report: string;
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
  /** The part of the book it belongs to, if any. */
  part: string | null;
  front_matter: boolean;
  /** Left out of render and export. */
  excluded: boolean;
}

/** Columns of a project row (the cover's bytes only when asked for). */
const PROJECT_COLUMNS = `id, title, author, voice, rate, pitch, volume, format, source_name, created_at, updated_at, language,
  cover IS NOT NULL AS has_cover, import_report`;
const CHAPTER_COLUMNS = 'idx, title, text, job_id, render_key, edits, part, front_matter, excluded';

type StoredProject = Omit<ProjectRow, 'has_cover'> & { has_cover: number };
type StoredChapter = Omit<ChapterRow, 'front_matter' | 'excluded' | 'edits'> & { front_matter: number; excluded: number; edits: string };
const projectOf = (row: StoredProject): ProjectRow => ({ ...row, has_cover: row.has_cover === 1 });
const chapterOf = (row: StoredChapter): ChapterRow => ({
  ...row,
  edits: JSON.parse(row.edits) as SentenceEdit[],
  front_matter: row.front_matter === 1,
  excluded: row.excluded === 1,
});

export type NewChapter = Omit<ChapterRow, 'idx'>;

/** Projects and their chapters in SQLite; the meaning of a render stays with the service. */
export class ProjectStore {
  constructor(private readonly db: Db) {}

  count(): number {
    return (this.db.prepare('SELECT count(*) AS n FROM projects').get() as { n: number }).n;
  }

  /** Newest change first, each with its number of chapters. */
  list(): (ProjectRow & { chapter_count: number })[] {
    const rows = this.db
      .prepare(
        `SELECT ${PROJECT_COLUMNS}, (SELECT count(*) FROM project_chapters c WHERE c.project_id = p.id) AS chapter_count
         FROM projects p ORDER BY updated_at DESC, id`,
      )
      .all() as (StoredProject & { chapter_count: number })[];
    return rows.map((row) => ({ ...projectOf(row), chapter_count: row.chapter_count }));
  }

  get(id: string): ProjectRow | undefined {
    const row = this.db.prepare(`SELECT ${PROJECT_COLUMNS} FROM projects WHERE id = ?`).get(id) as StoredProject | undefined;
    return row && projectOf(row);
  }

  /** The book's cover image, read from its file; null when it had none. */
  cover(id: string): Uint8Array | null {
    return (this.db.prepare('SELECT cover FROM projects WHERE id = ?').get(id) as { cover: Uint8Array | null } | undefined)?.cover ?? null;
  }

  chapters(id: string): ChapterRow[] {
    const rows = this.db
      .prepare(`SELECT ${CHAPTER_COLUMNS} FROM project_chapters WHERE project_id = ? ORDER BY idx`)
      .all(id) as StoredChapter[];
    return rows.map(chapterOf);
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

  insert(project: ProjectRow, book: ImportedBook, chapters: NewChapter[]): void {
    this.db.transaction(() => {
      this.db
        .prepare(
          `INSERT INTO projects (id, title, author, voice, rate, pitch, volume, format, source_name, created_at, updated_at,
             language, cover, import_report)
           VALUES (@id, @title, @author, @voice, @rate, @pitch, @volume, @format, @source_name, @created_at, @updated_at,
             @language, @cover, @import_report)`,
        )
        .run({ ...project, ...book });
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

  /** The project's chapters, all replaced at once; with `book`, a new manuscript's file, cover and report too. */
  replaceChapters(id: string, chapters: NewChapter[], now: string, book?: ImportedBook): void {
    this.db.transaction(() => {
      this.db.prepare('DELETE FROM project_chapters WHERE project_id = ?').run(id);
      this.insertChapters(id, chapters);
      this.db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?').run(now, id);
      if (book) {
        this.db
          .prepare('UPDATE projects SET source_name = @source_name, cover = @cover, import_report = @import_report WHERE id = @id')
          .run({ ...book, id });
      }
    })();
  }

  /** A chapter renamed, or left out of render and export, or taken back. */
  updateChapter(id: string, idx: number, change: { title: string; excluded: boolean }, now: string): void {
    this.db.transaction(() => {
      this.db
        .prepare('UPDATE project_chapters SET title = ?, excluded = ? WHERE project_id = ? AND idx = ?')
        .run(change.title, change.excluded ? 1 : 0, id, idx);
      this.db.prepare('UPDATE projects SET updated_at = ? WHERE id = ?').run(now, id);
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
      `INSERT INTO project_chapters (project_id, idx, title, text, job_id, render_key, edits, part, front_matter, excluded)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    chapters.forEach((c, idx) =>
      insert.run(
        id,
        idx,
        c.title,
        c.text,
        c.job_id,
        c.render_key,
        JSON.stringify(c.edits),
        c.part,
        c.front_matter ? 1 : 0,
        c.excluded ? 1 : 0,
      ),
    );
  }
}
