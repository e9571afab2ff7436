/** Numbered schema migrations: entry N brings the database from user_version N to N+1. Never edit a shipped one. */
export const MIGRATIONS: readonly string[] = [
  `
  CREATE TABLE jobs (
    id            TEXT PRIMARY KEY,
    state         TEXT NOT NULL,
    engine        TEXT NOT NULL,
    voice         TEXT NOT NULL,
    local_voice   TEXT NOT NULL,
    rate          REAL NOT NULL,
    pitch         REAL NOT NULL,
    volume        REAL NOT NULL,
    characters    INTEGER NOT NULL,
    chunks_total  INTEGER NOT NULL,
    chunks_done   INTEGER NOT NULL DEFAULT 0,
    sample_rate   INTEGER,
    created_at    TEXT NOT NULL,
    finished_at   TEXT,
    error_code    TEXT,
    error_message TEXT,
    audio_bytes   INTEGER,
    duration_s    REAL,
    expires_at    TEXT
  );
  CREATE INDEX jobs_by_created ON jobs (created_at DESC, id DESC);
  CREATE INDEX jobs_by_state ON jobs (state);
  CREATE TABLE chunks (
    job_id     TEXT NOT NULL REFERENCES jobs (id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,
    text       TEXT NOT NULL,
    pause_ms   INTEGER NOT NULL,
    done       INTEGER NOT NULL DEFAULT 0,
    samples    INTEGER,
    attempts   INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (job_id, idx)
  );
  `,
  // 2: a title per job (the start of its text), so that the studio can tell chapters apart
  `
  ALTER TABLE jobs ADD COLUMN title TEXT NOT NULL DEFAULT '';
  UPDATE jobs SET title = COALESCE((SELECT substr(text, 1, 80) FROM chunks WHERE chunks.job_id = jobs.id AND chunks.idx = 0), '');
  `,
  // 3: a title given by the user (PATCH /jobs/{id}); null shows the title made from the text
  `
  ALTER TABLE jobs ADD COLUMN custom_title TEXT;
  `,
  // 4: sentence timings (GET /jobs/{id}/timings): each chunk's sentences, placed in the job's text
  // at admission, and placed in the chunk's audio when it is synthesized (JSON; null before this)
  `
  ALTER TABLE chunks ADD COLUMN sentences TEXT;
  ALTER TABLE chunks ADD COLUMN sentence_samples TEXT;
  `,
  // 5: each job's output format: encoded as its chunks arrive, its WAV kept beside it only if asked
  `
  ALTER TABLE jobs ADD COLUMN format TEXT NOT NULL DEFAULT 'wav';
  ALTER TABLE jobs ADD COLUMN bitrate_kbps INTEGER;
  ALTER TABLE jobs ADD COLUMN keep_wav INTEGER NOT NULL DEFAULT 0;
  `,
  // 6: a chunk's own voice and prosody (SSML: <voice>, <prosody>); null: the job's
  `
  ALTER TABLE chunks ADD COLUMN voice TEXT;
  ALTER TABLE chunks ADD COLUMN local_voice TEXT;
  ALTER TABLE chunks ADD COLUMN rate REAL;
  ALTER TABLE chunks ADD COLUMN pitch REAL;
  ALTER TABLE chunks ADD COLUMN volume REAL;
  `,
  // 7: projects (docs/projects.md): a manuscript cut into chapters, each with the job that rendered
  // it and the render key it was rendered with; a deleted job leaves its chapter unrendered
  `
  CREATE TABLE projects (
    id          TEXT PRIMARY KEY,
    title       TEXT NOT NULL,
    author      TEXT NOT NULL DEFAULT '',
    voice       TEXT NOT NULL,
    rate        REAL NOT NULL,
    pitch       REAL NOT NULL,
    volume      REAL NOT NULL,
    format      TEXT NOT NULL,
    source_name TEXT NOT NULL,
    created_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
  );
  CREATE TABLE project_chapters (
    project_id TEXT NOT NULL REFERENCES projects (id) ON DELETE CASCADE,
    idx        INTEGER NOT NULL,
    title      TEXT NOT NULL,
    text       TEXT NOT NULL,
    job_id     TEXT REFERENCES jobs (id) ON DELETE SET NULL,
    render_key TEXT,
    PRIMARY KEY (project_id, idx)
  );
  CREATE INDEX project_chapters_by_job ON project_chapters (job_id);
  `,
  // 8: how many of a WAV job's first chunks are in its partial WAV: their chunk files are gone, and
  // a job taken up again resumes its WAV after them (jobs/assembler.ts)
  `
  ALTER TABLE jobs ADD COLUMN joined_chunks INTEGER NOT NULL DEFAULT 0;
  `,
  // 9: a revision per job, for clients to order what they hear (docs/api.md, "Job events"): every
  // insert, update and delete of a job takes the next number of one counter, so a number is never
  // given twice and a later change always has a higher one. Triggers give it, so that no write can
  // forget to; the guard on update stops at the trigger's own write. Existing jobs are numbered in
  // the order they were inserted.
  `
  ALTER TABLE jobs ADD COLUMN revision INTEGER NOT NULL DEFAULT 0;
  UPDATE jobs SET revision = rowid;
  CREATE INDEX jobs_by_revision ON jobs (revision);
  CREATE TABLE job_revision (value INTEGER NOT NULL);
  INSERT INTO job_revision (value) SELECT COALESCE(MAX(revision), 0) FROM jobs;
  CREATE TRIGGER jobs_revision_on_insert AFTER INSERT ON jobs BEGIN
    UPDATE job_revision SET value = value + 1;
    UPDATE jobs SET revision = (SELECT value FROM job_revision) WHERE id = NEW.id;
  END;
  CREATE TRIGGER jobs_revision_on_update AFTER UPDATE ON jobs WHEN NEW.revision = OLD.revision BEGIN
    UPDATE job_revision SET value = value + 1;
    UPDATE jobs SET revision = (SELECT value FROM job_revision) WHERE id = NEW.id;
  END;
  CREATE TRIGGER jobs_revision_on_delete AFTER DELETE ON jobs BEGIN
    UPDATE job_revision SET value = value + 1;
  END;
  `,
  // 10: a job's series (a project's chapters) and its place in it: the queue takes a series' jobs in
  // order, and a cancelled one keeps its saved chunks; a chapter's sentence edits (JSON), the
  // manuscript's text kept as it is (docs/projects.md)
  `
  ALTER TABLE jobs ADD COLUMN series TEXT;
  ALTER TABLE jobs ADD COLUMN series_idx INTEGER;
  ALTER TABLE project_chapters ADD COLUMN edits TEXT NOT NULL DEFAULT '[]';
  `,
  // 11: compare sessions (docs/studio.md, docs/api.md#compare-sessions): texts, voices and judging of a
  // listening session, and its takes; a take's audio is a file of the session (audio = 1) copied from
  // the job that made it, so the job may go; JSON columns hold lists the gateway never queries into
  `
  CREATE TABLE compare_sessions (
    id             TEXT PRIMARY KEY,
    name           TEXT NOT NULL,
    texts          TEXT NOT NULL,
    voices         TEXT NOT NULL,
    rate           REAL NOT NULL,
    pitch          REAL NOT NULL,
    volume         REAL NOT NULL,
    blind          INTEGER NOT NULL,
    revealed       INTEGER NOT NULL,
    loudness_match INTEGER NOT NULL,
    take_order     TEXT NOT NULL,
    pairs          TEXT NOT NULL DEFAULT '[]',
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
  );
  CREATE TABLE compare_takes (
    session_id       TEXT NOT NULL REFERENCES compare_sessions (id) ON DELETE CASCADE,
    id               TEXT NOT NULL,
    idx              INTEGER NOT NULL,
    text_index       INTEGER NOT NULL,
    voice            TEXT NOT NULL,
    job_id           TEXT REFERENCES jobs (id) ON DELETE SET NULL,
    audio            INTEGER NOT NULL DEFAULT 0,
    engine           TEXT,
    duration_s       REAL,
    loudness_lufs    REAL,
    timings          TEXT,
    error_code       TEXT,
    error_message    TEXT,
    rating           INTEGER,
    note             TEXT NOT NULL DEFAULT '',
    sentence_ratings TEXT NOT NULL DEFAULT '[]',
    PRIMARY KEY (session_id, id)
  );
  CREATE INDEX compare_takes_by_job ON compare_takes (job_id);
  `,
  // 12: a book's structure and metadata (docs/projects.md, "The book's structure"): its language,
  // cover and import report; each chapter's part, whether it is front matter, whether it is left
  // out of render and export
  `
  ALTER TABLE projects ADD COLUMN language TEXT NOT NULL DEFAULT '';
  ALTER TABLE projects ADD COLUMN cover BLOB;
  ALTER TABLE projects ADD COLUMN import_report TEXT;
  ALTER TABLE project_chapters ADD COLUMN part TEXT;
  ALTER TABLE project_chapters ADD COLUMN front_matter INTEGER NOT NULL DEFAULT 0;
  ALTER TABLE project_chapters ADD COLUMN excluded INTEGER NOT NULL DEFAULT 0;
  `,
  // 13: the render cache (jobs/render-cache/): each sentence's audio by the key of what is said
  // and how, its file in <data dir>/render-cache, and when it was last used, for eviction
  `
  CREATE TABLE render_cache (
    key         TEXT PRIMARY KEY,
    sample_rate INTEGER NOT NULL,
    bytes       INTEGER NOT NULL,
    used        INTEGER NOT NULL,
    created_at  TEXT NOT NULL
  ) WITHOUT ROWID;
  CREATE INDEX render_cache_by_use ON render_cache (used);
  `,
  // 14: a chunk whose audio is an earlier render's (jobs/base-audio/): where its samples start in
  // that render's WAV, linked into the job's work folder
  `
  ALTER TABLE chunks ADD COLUMN base_offset INTEGER;
  `,
];
