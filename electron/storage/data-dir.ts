import { constants, chmodSync, lstatSync, readdirSync } from 'node:fs';
import { access, chmod, mkdir, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PRIVATE_DIR_MODE } from './private-files';

/** Where Electron keeps userData for "Orator"; the headless gateway shares it. */
export function defaultDataDir(platform = process.platform, env = process.env, home = os.homedir()): string {
  if (platform === 'win32') return path.join(env.APPDATA ?? path.join(home, 'AppData', 'Roaming'), 'Orator');
  if (platform === 'darwin') return path.join(home, 'Library', 'Application Support', 'Orator');
  return path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'Orator');
}

/** Windows keeps access in ACLs (%APPDATA% is the user's own); its mode bits mean only read-only or not. */
const HAS_MODE_BITS = process.platform !== 'win32';

export interface DataDirOptions {
  /**
   * Create missing parent folders too: right for the platform's default location (~/.config may
   * not exist yet), wrong for a folder someone named, where a typo or an unmounted disk would
   * otherwise quietly grow a new tree.
   */
  createParents: boolean;
}

/**
 * Makes sure the data folder exists, is a folder this user can write, and is private (group and
 * others lose every permission, on each start: a folder made or loosened by hand is tightened).
 * Throws an Error whose message says what is wrong and what to do.
 */
export async function prepareDataDir(dir: string, options: DataDirOptions): Promise<void> {
  try {
    await mkdir(dir, { recursive: options.createParents, mode: PRIVATE_DIR_MODE });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      throw new Error(
        `The folder ${path.dirname(dir)}, which is to hold the data folder ${dir}, does not exist. Create it, or choose another --data-dir.`,
        { cause: error },
      );
    }
    if (code !== 'EEXIST')
      throw new Error(`The data folder ${dir} cannot be created: ${describe(error)}. Choose another --data-dir.`, { cause: error });
  }
  const stats = await stat(dir);
  if (!stats.isDirectory()) throw new Error(`The data folder ${dir} is not a folder. Choose another --data-dir.`);
  try {
    await access(dir, constants.W_OK);
  } catch (error) {
    throw new Error(
      `The data folder ${dir} is read-only (${describe(error)}). Orator writes its job queue and audio there: make it writable for this user, or choose another --data-dir.`,
      { cause: error },
    );
  }
  if (!HAS_MODE_BITS || (stats.mode & 0o077) === 0) return;
  try {
    await chmod(dir, stats.mode & 0o700);
  } catch (error) {
    throw new Error(
      `The data folder ${dir} is open to other users and cannot be made private (${describe(error)}); it belongs to another user. Choose a folder of your own with --data-dir.`,
      { cause: error },
    );
  }
}

export interface TighteningReport {
  /** Files and folders looked at. */
  entries: number;
  /** Those whose group and other permissions were removed. */
  tightened: number;
  /** Those that could not be changed (owned by another user). */
  failed: string[];
}

/**
 * Removes group and other permissions from everything under `dir` (not `dir` itself; see
 * prepareDataDir): files written by an older version, or by hand, with the usual 0644. Symbolic
 * links are neither changed nor followed (a models link may point at a shared folder).
 * Synchronous: it runs once at start, before anything else touches the folder.
 */
export function makeTreePrivate(dir: string): TighteningReport {
  const report: TighteningReport = { entries: 0, tightened: 0, failed: [] };
  const pending = HAS_MODE_BITS ? [dir] : [];
  for (let current = pending.pop(); current !== undefined; current = pending.pop()) {
    let entries;
    try {
      entries = readdirSync(current, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') report.failed.push(current);
      continue;
    }
    for (const entry of entries) {
      if (entry.isSymbolicLink()) continue;
      const file = path.join(current, entry.name);
      report.entries++;
      if (entry.isDirectory()) pending.push(file);
      try {
        const mode = lstatSync(file).mode;
        if ((mode & 0o077) === 0) continue;
        chmodSync(file, mode & 0o700);
        report.tightened++;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT') report.failed.push(file);
      }
    }
  }
  return report;
}

function describe(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}
