/**
 * What an install fetches, decided before anything is downloaded: each file with its size and the
 * hash it must have. A hash pinned in the catalog is used as it is; a file without one takes its
 * sha256 from its release's checksum list (`checksums`), read now, at install time, and its size
 * from the server when the catalog does not say it. The sizes then go to the disk check, and the
 * hashes to the download, which refuses any other bytes: no file is ever installed unverified.
 */
import { ApiError } from '../contract/errors';
import type { ArchiveKind, CatalogFile, CatalogVoice, HashSource, Verification } from '../contract/voice-library';
import { fetchChecksumList, type ChecksumList } from './checksums';
import { fileName } from './download';
import { failureReason, remoteSize } from './fetch-bounded';

export interface InstallFile {
  url: string;
  size_bytes: number;
  /** Where the size came from: the catalog, or the server's Content-Length. */
  size_from: 'catalog' | 'server';
  hash: { algorithm: 'sha256' | 'md5'; hex: string };
  hash_source: HashSource;
  archive?: ArchiveKind;
  unpacked_bytes?: number;
}
export type PlannedVoice = Omit<CatalogVoice, 'files'> & { files: InstallFile[] };

const HEAD_TIMEOUT_MS = 30_000;

function pinnedHash(file: CatalogFile): InstallFile['hash'] | undefined {
  if (file.sha256) return { algorithm: 'sha256', hex: file.sha256 };
  if (file.md5) return { algorithm: 'md5', hex: file.md5 };
  return undefined;
}

const pinned = (file: CatalogFile) => file.size_bytes !== null && pinnedHash(file) !== undefined;

/** How the files of these voices would be verified; 'none' when one has neither a pinned hash nor a checksum list. */
export function verificationOf(voices: CatalogVoice[]): Verification {
  const files = voices.flatMap((voice) => voice.files);
  if (files.every(pinned)) return 'catalog';
  return files.every((file) => pinned(file) || file.checksums) ? 'checksum_list' : 'none';
}

/** An installed voice's hash source, from its manifest's files: a checksum list when any file's hash came from one. */
export function hashSourceOf(files: { hash_source?: HashSource }[]): HashSource {
  return files.find((file) => file.hash_source?.kind === 'checksum_list')?.hash_source ?? { kind: 'catalog' };
}

/**
 * Each file of the voices with its size and hash. Throws voice_not_pinned (a file with no way to
 * verify it), checksum_not_listed (the list lacks the file), voice_source_unreachable (the list or
 * the file's size cannot be read); nothing has been downloaded then.
 */
export async function planInstall(voices: CatalogVoice[]): Promise<PlannedVoice[]> {
  const unverifiable = voices.filter((voice) => verificationOf([voice]) === 'none');
  if (unverifiable.length > 0) {
    throw new ApiError(
      'voice_not_pinned',
      `The catalog has neither a hash nor a checksum list for ${unverifiable.map((v) => v.id).join(', ')}, and Orator installs only files it can verify. ` +
        'Use a catalog that pins them (voice_catalog_url), or regenerate the catalog online (docs/voices.md).',
    );
  }
  // one read of each list per install: Matcha and its vocoder come from two releases, Kokoro's speakers from one
  const lists = new Map<string, Promise<ChecksumList>>();
  const plan: PlannedVoice[] = [];
  for (const voice of voices) {
    const files: InstallFile[] = [];
    for (const file of voice.files) files.push(await planFile(file, lists));
    plan.push({ ...voice, files });
  }
  return plan;
}

async function planFile(file: CatalogFile, lists: Map<string, Promise<ChecksumList>>): Promise<InstallFile> {
  const name = fileName(file.url);
  const pinnedAs = pinned(file) ? pinnedHash(file) : undefined;
  const { hash, hash_source } = pinnedAs
    ? { hash: pinnedAs, hash_source: { kind: 'catalog' as const } }
    : await listedHash(file.checksums!, name, lists);
  const size = file.size_bytes ?? (await sizeFromServer(file.url, name));
  return {
    url: file.url,
    size_bytes: size,
    size_from: file.size_bytes === null ? 'server' : 'catalog',
    hash,
    hash_source,
    ...(file.archive ? { archive: file.archive } : {}),
    ...(file.unpacked_bytes === undefined ? {} : { unpacked_bytes: file.unpacked_bytes }),
  };
}

async function listedHash(url: string, name: string, lists: Map<string, Promise<ChecksumList>>) {
  if (!lists.has(url)) lists.set(url, fetchChecksumList(url));
  let list: ChecksumList;
  try {
    list = await lists.get(url)!;
  } catch (error) {
    throw new ApiError(
      'voice_source_unreachable',
      `The checksum list ${url}, which holds the hash of ${name}, could not be read: ${(error as Error).message}. Nothing was downloaded.`,
      { cause: error },
    );
  }
  const hex = list.sha256.get(name);
  if (!hex) {
    throw new ApiError(
      'checksum_not_listed',
      `The checksum list ${url} has no line for ${name}, so Orator cannot verify it and installs nothing. ` +
        'The release may not publish it (yet); a catalog that pins its hash can install it (docs/voices.md).',
    );
  }
  return { hash: { algorithm: 'sha256' as const, hex }, hash_source: { kind: 'checksum_list' as const, url, fetched_at: list.fetched_at } };
}

async function sizeFromServer(url: string, name: string): Promise<number> {
  try {
    return await remoteSize(url, HEAD_TIMEOUT_MS);
  } catch (error) {
    throw new ApiError(
      'voice_source_unreachable',
      `The size of ${name} could not be read from ${url}: ${failureReason(error)}. Nothing was downloaded.`,
      { cause: error },
    );
  }
}
