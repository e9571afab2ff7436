/**
 * Installs one catalog entry into the models folder: each file streamed into a staging folder
 * inside the models folder (so the final rename stays on one volume), checked, archives unpacked
 * in a worker thread, a raw Piper voice made sherpa-ready, the files the engine needs checked, the
 * manifest written last, then one rename into place. What is in staging is never a voice: a
 * gateway killed mid-install leaves only staging, which clearStaging() removes at the next start.
 */
import { mkdir, readdir, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { VOICE_MANIFEST_FILE, type VoiceManifest, type CatalogInfo } from '../contract/voice-library';
export { readVoiceManifest } from '../engines/sherpa-onnx/models';
import { downloadFile, fileName, IntegrityError, type DownloadResult, type DownloadTarget } from './download';
import type { InstallFile, PlannedVoice } from './install-plan';
import { makePiperReady } from './piper-ready';
import { unpackInWorker } from './unpack';

export const STAGING_DIR = '.staging';

/** The disk ledger (jobs/disk-budget.ts), as installs use it: an install reserves, writes, releases. */
export interface InstallDisk {
  free(): Promise<number>;
  readonly minFreeBytes: number;
  reserve(key: string, bytes: number, wording: { what: string; advice: string }): Promise<void>;
  write(key: string, bytes: number): Promise<void>;
  release(key: string): void;
}

/** The ledger's key of an install. */
export const installDiskKey = (id: string) => `voice:${id}`;

export interface InstallContext {
  modelsDir: string;
  catalog: CatalogInfo;
  unpackWorker: string;
  disk: InstallDisk;
  /** The ledger's key its writes count against (installDiskKey of the voice asked for). */
  diskKey: string;
  signal: AbortSignal;
  onBytes(delta: number): void;
  /** Told the bytes each download really fetched (resumed and repeated ones included). */
  onFetched?(result: DownloadResult): void;
}

export const installedDir = (modelsDir: string, id: string) => path.join(modelsDir, id);

/** Removes what installs in progress left when the gateway stopped; at start, before any install. */
export async function clearStaging(modelsDir: string): Promise<void> {
  await rm(path.join(modelsDir, STAGING_DIR), { recursive: true, force: true });
}

/** An archive's unpacked size when the catalog does not say: ONNX weights barely compress. */
const UNPACKED_GUESS = 2;

/** Disk an install takes at its peak: every download, plus what each archive unpacks to. */
export function installBytes(voices: PlannedVoice[]): number {
  return voices
    .flatMap((voice) => voice.files)
    .reduce((sum, file) => sum + file.size_bytes + (file.archive ? (file.unpacked_bytes ?? UNPACKED_GUESS * file.size_bytes) : 0), 0);
}

/**
 * Sets aside in the disk ledger what the install of `id` will write, before anything is fetched:
 * 507 when it would take the disk below its free minimum beside the work already accepted.
 */
export async function reserveForInstall(id: string, voices: PlannedVoice[], disk: InstallDisk): Promise<void> {
  await disk.reserve(installDiskKey(id), installBytes(voices), {
    what: `Installing ${voices.map((v) => v.id).join(' and ')}`,
    advice: 'Free some space first.',
  });
}

function target(file: InstallFile): DownloadTarget {
  const source = file.hash_source;
  return {
    url: file.url,
    size: file.size_bytes,
    hash: file.hash,
    says: {
      size: file.size_from === 'server' ? 'the server' : 'the catalog',
      hash: source.kind === 'catalog' ? 'the catalog' : `the checksum list ${source.url}`,
    },
  };
}

/** Downloads a file; a wrong size or hash deletes it and tries once more, then fails naming the file and both hashes. */
async function fetchVerified(file: InstallFile, part: string, context: InstallContext): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      const result = await downloadFile(target(file), part, {
        signal: context.signal,
        onBytes: context.onBytes,
        assertRoom: (bytes) => context.disk.write(context.diskKey, bytes),
      });
      context.onFetched?.(result);
      return;
    } catch (error) {
      if (!(error instanceof IntegrityError)) throw error;
      const size = await stat(part).then(
        (s) => s.size,
        () => 0,
      );
      context.onBytes(-size);
      await rm(part, { force: true });
      if (attempt === 2) throw new Error(`${error.message} (downloaded twice; nothing was installed)`, { cause: error });
    }
  }
}

/** The folder the files are in: an archive's one top folder, else the folder itself. */
async function contentRoot(dir: string): Promise<string> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries.length === 1 && entries[0]!.isDirectory() ? path.join(dir, entries[0]!.name) : dir;
}

/** Checks that the folder holds what the voice's engine loads; throws a sentence naming what is missing. */
async function assertEngineFiles(voice: PlannedVoice, dir: string): Promise<void> {
  const files = await readdir(dir);
  const missing = (what: string) => new Error(`${voice.id} was unpacked without ${what}; nothing was installed`);
  if (voice.engine === 'component') {
    if (files.length === 0) throw missing('any file');
    return;
  }
  if (!files.some((f) => f.endsWith('.onnx'))) throw missing('an .onnx model');
  if (!files.includes('tokens.txt')) throw missing('tokens.txt');
  if (voice.engine === 'kokoro' && !files.includes('voices.bin')) throw missing('voices.bin');
}

/** A Matcha voice's vocoder: the .onnx in the folder of the component it requires, relative to the voice's folder. */
async function vocoderOf(voice: PlannedVoice, modelsDir: string): Promise<string | undefined> {
  if (voice.engine !== 'matcha') return undefined;
  for (const required of voice.requires ?? []) {
    const dir = installedDir(modelsDir, required);
    const onnx = (await readdir(dir).catch(() => [] as string[])).find((f) => f.endsWith('.onnx'));
    if (onnx) return path.posix.join('..', required, onnx);
  }
  throw new Error(`${voice.id} needs its vocoder (${(voice.requires ?? []).join(', ')}) installed first`);
}

export async function installVoice(voice: PlannedVoice, context: InstallContext): Promise<void> {
  const staging = path.join(context.modelsDir, STAGING_DIR, voice.id);
  await rm(staging, { recursive: true, force: true });
  const downloads = path.join(staging, 'downloads');
  const out = path.join(staging, 'out');
  await mkdir(downloads, { recursive: true });
  await mkdir(out);
  try {
    for (const [index, file] of voice.files.entries()) {
      const part = path.join(downloads, `${index}.part`);
      await fetchVerified(file, part, context);
      if (file.archive) {
        const room = (await context.disk.free()) - context.disk.minFreeBytes;
        await unpackInWorker(
          context.unpackWorker,
          { archive: part, kind: file.archive, dest: out, maxBytes: Math.max(0, room) },
          context.signal,
        );
        await rm(part);
      } else {
        await rename(part, path.join(out, fileName(file.url)));
      }
    }
    const root = await contentRoot(out);
    if (voice.engine === 'piper') await makePiperReady(root);
    await assertEngineFiles(voice, root);
    const vocoder = await vocoderOf(voice, context.modelsDir);
    const manifest: VoiceManifest = {
      id: voice.id,
      engine: voice.engine,
      name: voice.name,
      language: voice.language,
      catalog: { url: context.catalog.url, ...(context.catalog.ref ? { ref: context.catalog.ref } : {}) },
      license: voice.license,
      files: voice.files.map((f) => ({ url: f.url, size_bytes: f.size_bytes, [f.hash.algorithm]: f.hash.hex, hash_source: f.hash_source })),
      ...(voice.speaker_names ? { speaker_names: voice.speaker_names } : {}),
      ...(vocoder ? { vocoder } : {}),
      installed_at: new Date().toISOString(),
    };
    await writeFile(path.join(root, VOICE_MANIFEST_FILE), `${JSON.stringify(manifest, null, 2)}\n`);
    const final = installedDir(context.modelsDir, voice.id);
    await rm(final, { recursive: true, force: true });
    await rename(root, final);
  } finally {
    await rm(staging, { recursive: true, force: true });
    // the staging folder itself goes with its last install (it is not a voice folder to list)
    await rmdir(path.dirname(staging)).catch(() => undefined);
  }
}
