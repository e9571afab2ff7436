/**
 * Exports on disk: `<data-dir>/exports/<id>.json` (the record, rewritten whole by a rename at each
 * change of status) beside the export's file and its subtitles. An export that was running when
 * the gateway stopped cannot be resumed (its encoder's state is gone): at the next start it is
 * recorded failed with `interrupted`, and its partial files removed.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { EXPORT_MEDIA, type Export, type ExportFormat } from '../../contract';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../storage/private-files';

/** What is kept of an export: its view, less what is derived (URLs, progress). */
export type ExportRecord = Omit<Export, 'progress' | 'file'> & {
  file?: { name: string; content_type: string; bytes: number; duration_s: number };
};

const ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

export class ExportStore {
  private readonly dir: string;

  constructor(dataDir: string) {
    this.dir = path.join(dataDir, 'exports');
  }

  isId(id: string): boolean {
    return ID.test(id);
  }

  audioFile(id: string, format: ExportFormat): string {
    return path.join(this.dir, `${id}.${EXPORT_MEDIA[format].extension}`);
  }

  subtitleFile(id: string, format: 'vtt' | 'srt'): string {
    return path.join(this.dir, `${id}.${format}`);
  }

  /** Every record, oldest first; those left running by a stop become failed. */
  async load(): Promise<ExportRecord[]> {
    await mkdir(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const names = (await readdir(this.dir)).filter((name) => name.endsWith('.json') && ID.test(name.slice(0, -5)));
    const records: ExportRecord[] = [];
    for (const name of names) {
      try {
        records.push(JSON.parse(await readFile(path.join(this.dir, name), 'utf8')) as ExportRecord);
      } catch (error) {
        console.warn(`Orator skipped the export record ${name}, which it cannot read: ${(error as Error).message}`);
      }
    }
    for (const record of records.filter((r) => r.status === 'running')) {
      Object.assign(record, {
        status: 'failed',
        finished_at: new Date().toISOString(),
        error: { code: 'interrupted', message: 'Orator stopped while this export was being made; export again.' },
      });
      const partial = `${this.audioFile(record.export_id, record.format)}.partial`;
      await Promise.all([partial, `${partial}.frames`].map((f) => rm(f, { force: true })));
      await this.save(record);
    }
    return records.sort((a, b) => a.created_at.localeCompare(b.created_at));
  }

  async save(record: ExportRecord): Promise<void> {
    const file = path.join(this.dir, `${record.export_id}.json`);
    await writeFile(`${file}.partial`, JSON.stringify(record), { mode: PRIVATE_FILE_MODE });
    await rename(`${file}.partial`, file);
  }

  async remove(record: ExportRecord): Promise<void> {
    const audio = this.audioFile(record.export_id, record.format);
    const files = [
      audio,
      `${audio}.partial`,
      `${audio}.partial.frames`,
      this.subtitleFile(record.export_id, 'vtt'),
      this.subtitleFile(record.export_id, 'srt'),
    ];
    await Promise.all([...files, path.join(this.dir, `${record.export_id}.json`)].map((f) => rm(f, { force: true })));
  }
}
