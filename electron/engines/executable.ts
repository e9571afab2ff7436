/**
 * Which engine programs Orator agrees to run. A program is run with request text, so the file
 * must be one that only root or the user Orator runs as can change: otherwise another local user
 * (or anything that can write a shared folder) could swap in a program of their own.
 */
import { constants } from 'node:fs';
import { access, realpath, stat } from 'node:fs/promises';
import path from 'node:path';

/** A program Orator refuses to run; the message says which file and why. */
export class UntrustedProgram extends Error {
  override name = 'UntrustedProgram';
}

/**
 * The real file behind `file` (symbolic links resolved), when Orator may run it: an absolute
 * path to a regular, executable file, owned by root or by the current user, and writable by
 * nobody else (no group or world write bit). Throws UntrustedProgram otherwise. On Windows only
 * the path and the file type are checked: its files have no owner and mode bits to read here.
 */
export async function trustedProgram(file: string, platform = process.platform): Promise<string> {
  if (!path.isAbsolute(file)) throw new UntrustedProgram(`"${file}" is not an absolute path`);
  let real: string;
  try {
    real = await realpath(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UntrustedProgram(`${file} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? (error as Error).message})`}`);
  }
  const named = real === file ? file : `${file} (${real})`;
  const info = await stat(real);
  if (!info.isFile()) throw new UntrustedProgram(`${named} is ${info.isDirectory() ? 'a folder' : 'not a regular file'}`);
  if (platform === 'win32') return real;
  if ((info.mode & 0o111) === 0 || !(await canExecute(real))) throw new UntrustedProgram(`${named} is not executable`);
  const uid = process.getuid?.();
  if (info.uid !== 0 && info.uid !== uid) {
    throw new UntrustedProgram(`${named} is owned by user id ${info.uid}, neither root nor the user Orator runs as`);
  }
  if ((info.mode & 0o022) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
    throw new UntrustedProgram(`${named} can be changed by other users (mode ${mode}); remove the group and world write bits: chmod go-w`);
  }
  return real;
}

async function canExecute(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
