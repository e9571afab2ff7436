import { closeSync, fstatSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from './private-files';

export interface RotatingLogOptions {
  /** The file is rotated before a line would take it past this size. */
  maxBytes: number;
  /** Rotated files kept (at least 1): <file>.1 (newest) to <file>.<keep>; older ones are overwritten. */
  keep: number;
}

/**
 * An append-only log of one line per call, rotated by size. One open descriptor and one write
 * per line (O_APPEND, so a line is never split); a failure (disk full, folder removed) loses that
 * line, never the caller's work, and is reported once until writing works again.
 */
export class RotatingLog {
  private fd: number | null = null;
  private size = 0;
  private failing = false;

  constructor(
    private readonly file: string,
    private readonly options: RotatingLogOptions,
  ) {}

  write(line: string): void {
    const bytes = Buffer.from(`${line}\n`);
    try {
      this.fd ??= this.open();
      if (this.size > 0 && this.size + bytes.length > this.options.maxBytes) this.rotate();
      writeSync(this.fd!, bytes);
      this.size += bytes.length;
      this.failing = false;
    } catch (error) {
      this.close();
      if (!this.failing)
        console.error(`Orator: cannot write ${this.file} (${(error as Error).message}); log lines are dropped until it works again.`);
      this.failing = true;
    }
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    this.fd = null;
  }

  private open(): number {
    mkdirSync(path.dirname(this.file), { recursive: true, mode: PRIVATE_DIR_MODE });
    const fd = openSync(this.file, 'a', PRIVATE_FILE_MODE);
    this.size = fstatSync(fd).size;
    return fd;
  }

  private rotate(): void {
    this.close();
    for (let n = this.options.keep - 1; n >= 1; n--) renameIfThere(`${this.file}.${n}`, `${this.file}.${n + 1}`);
    renameSync(this.file, `${this.file}.1`);
    this.fd = this.open();
  }
}

function renameIfThere(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
