/**
 * Probe answers kept for the life of the process. A gateway started again in the same process (a
 * restart by the desktop app, the gateways of one test file) would otherwise load every embedded
 * engine on a thread and run Festival's voice listing again: together about 3 CPU-s of a start,
 * Festival's alone 1.6 s. An answer is given again only at start-up (`probe({ reuse: true })`),
 * and only while its fingerprint holds: the files it came from and the environment engines run
 * with. A refresh always probes afresh, and its answer replaces the kept one.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { engineEnvironment } from './child-env';

/** How a probe may be answered; see EngineAdapter.probe. */
export interface ProbeOptions {
  /** An answer kept from an earlier probe in this process may be given while its fingerprint holds. */
  reuse?: boolean;
}

export class ProbeMemo<T> {
  private readonly kept = new Map<string, { fingerprint: string; value: T }>();

  /** `worthKeeping`: only such answers are kept (not a failure, which may be passing: a timeout under load). */
  constructor(private readonly worthKeeping: (value: T) => boolean) {}

  /**
   * The kept value of `key` when `options.reuse` allows it and its fingerprint is still
   * `fingerprint`; otherwise `probe()`'s, kept for the next start.
   */
  async answer(key: string, fingerprint: string, options: ProbeOptions, probe: () => Promise<T>): Promise<T> {
    const kept = this.kept.get(key);
    if (options.reuse && kept?.fingerprint === fingerprint) return kept.value;
    const value = await probe();
    if (this.worthKeeping(value)) this.kept.set(key, { fingerprint, value });
    else this.kept.delete(key);
    return value;
  }
}

/**
 * What a probe's answer depends on, read without opening a file: each path's inode, size and
 * times (the change time moves with its mode and owner too), a folder's entries one level down
 * likewise (a voice installed into a language folder changes that folder), and the environment
 * engine processes get. Missing paths count as missing: one appearing changes the fingerprint.
 */
export async function filesFingerprint(paths: string[]): Promise<string> {
  const parts = await Promise.all(paths.map(async (file) => [await describe(file), ...(await entries(file))].join('\n')));
  return [...parts, JSON.stringify(engineEnvironment())].join('\n');
}

async function describe(file: string): Promise<string> {
  try {
    const info = await stat(file);
    return `${file} ${info.ino} ${info.size} ${info.mtimeMs} ${info.ctimeMs}`;
  } catch {
    return `${file} missing`;
  }
}

async function entries(dir: string): Promise<string[]> {
  const names = await readdir(dir).catch(() => []);
  return Promise.all(names.sort().map((name) => describe(path.join(dir, name))));
}
