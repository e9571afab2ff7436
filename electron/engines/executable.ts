/**
 * Which engine programs Orator agrees to run. A program is run with request text, so the file
 * must be one that only root or the user Orator runs as can change: otherwise another local user
 * (or anything that can write a shared folder) could swap in a program of their own.
 */
import { constants, type Stats } from 'node:fs';
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
  const { real, named, info } = await resolved(file);
  if (!info.isFile()) throw new UntrustedProgram(`${named} is ${info.isDirectory() ? 'a folder' : 'not a regular file'}`);
  if (platform === 'win32') return real;
  if ((info.mode & 0o111) === 0 || !(await canExecute(real))) throw new UntrustedProgram(`${named} is not executable`);
  checkOwner(named, info);
  return real;
}

/**
 * A folder Orator may load voice models from (the models_dir setting): models are run as code by
 * ONNX runtimes, so the same rules hold as for programs: an absolute path to a folder owned by root
 * or the user, writable by nobody else. Throws UntrustedProgram otherwise.
 */
export async function trustedFolder(dir: string, platform = process.platform): Promise<string> {
  const { real, named, info } = await resolved(dir);
  if (!info.isDirectory()) throw new UntrustedProgram(`${named} is not a folder`);
  if (platform !== 'win32') checkOwner(named, info);
  return real;
}

/** An absolute path with its symbolic links resolved; `named` names both where they differ. */
async function resolved(given: string): Promise<{ real: string; named: string; info: Stats }> {
  if (!path.isAbsolute(given)) throw new UntrustedProgram(`"${given}" is not an absolute path`);
  let real: string;
  try {
    real = await realpath(given);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UntrustedProgram(`${given} ${code === 'ENOENT' ? 'does not exist' : `cannot be read (${code ?? (error as Error).message})`}`);
  }
  return { real, named: real === given ? given : `${given} (${real})`, info: await stat(real) };
}

/** Owned by root or the current user, and no group or world write bit. */
function checkOwner(named: string, info: Stats): void {
  const uid = process.getuid?.();
  if (info.uid !== 0 && info.uid !== uid) {
    throw new UntrustedProgram(`${named} is owned by user id ${info.uid}, neither root nor the user Orator runs as`);
  }
  if ((info.mode & 0o022) !== 0) {
    const mode = (info.mode & 0o777).toString(8).padStart(4, '0');
    throw new UntrustedProgram(`${named} can be changed by other users (mode ${mode}); remove the group and world write bits: chmod go-w`);
  }
}

async function canExecute(file: string): Promise<boolean> {
  try {
    await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
