import path from 'node:path';

/** The values that flags and environment variables give as text, read into what Orator uses; each throws naming its flag. */

interface Bounds {
  minimum: number;
  maximum?: number | undefined;
}

/** A whole number within its bounds, or `fallback` when nothing was given. */
export function integer(name: string, value: string | undefined, fallback: number, { minimum, maximum = Infinity }: Bounds): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < minimum || n > maximum) {
    const range = maximum === Infinity ? `≥ ${minimum}` : `from ${minimum} to ${maximum}`;
    throw new Error(`${name} must be an integer ${range}, got "${value}"`);
  }
  return n;
}

export function absolute(flag: string, file: string): string {
  if (!path.isAbsolute(file)) throw new Error(`${flag} must be an absolute path, got "${file}"`);
  return file;
}

/** "--engine-executable piper=/opt/piper/piper": the engine id, then its program. */
export function engineExecutable(given: string, flag = '--engine-executable'): [string, string] {
  const match = /^([a-z0-9-]+)=(.+)$/.exec(given);
  if (!match) throw new Error(`${flag} must be <engine id>=<absolute path>, e.g. piper=/opt/piper/piper; got "${given}"`);
  return [match[1]!, absolute(flag, match[2]!)];
}
