/**
 * The voice catalog: read from the file Orator ships, or from voice_catalog_url (http(s) or
 * file://), checked against its schema, with relative file and licence URLs resolved against the
 * catalog's own URL. The last catalog read well is kept in the data folder and used until another is.
 */
import { randomUUID } from 'node:crypto';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Value } from 'typebox/value';
import { ApiError } from '../contract/errors';
import { Catalog, type CatalogInfo, type CatalogVoice } from '../contract/voice-library';
import { PRIVATE_FILE_MODE } from '../storage/private-files';
import { failureReason, readBounded } from './fetch-bounded';

/** A catalog larger than this is refused (Orator's own is under 300 KB). */
export const CATALOG_MAX_BYTES = 32 * 1024 * 1024;
const FETCH_TIMEOUT_MS = 30_000;
const SAVED_FILE = 'voice-catalog.json';

export interface LoadedCatalog {
  info: CatalogInfo;
  voices: CatalogVoice[];
}

/** Checks a catalog's text; throws a sentence saying what is wrong. File URLs come back absolute. */
export function parseCatalog(text: string, url: string): CatalogVoice[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new Error(`the catalog is not JSON (${(error as Error).message})`, { cause: error });
  }
  if (!Value.Check(Catalog, json)) {
    const first = [...Value.Errors(Catalog, json)][0];
    throw new Error(`the catalog does not fit Orator's format: ${first?.instancePath || '/'} ${first?.message ?? ''}`.trim());
  }
  const ids = new Set<string>();
  for (const voice of json.voices) {
    if (ids.has(voice.id)) throw new Error(`the catalog lists "${voice.id}" twice`);
    ids.add(voice.id);
  }
  return json.voices.map((voice) => {
    for (const required of voice.requires ?? []) {
      if (!ids.has(required)) throw new Error(`"${voice.id}" requires "${required}", which the catalog does not list`);
    }
    return {
      ...voice,
      // the licence too: the studio links to it, and a mirror's copy sits beside the voice's files
      license: { ...voice.license, url: absoluteUrl(voice.license.url, url, 'a licence URL') },
      files: voice.files.map((file) => ({
        ...file,
        url: absoluteUrl(file.url, url, 'a file URL'),
        ...(file.checksums ? { checksums: absoluteUrl(file.checksums, url, 'a checksum list URL') } : {}),
      })),
    };
  });
}

function absoluteUrl(relative: string, base: string, what: string): string {
  const url = new URL(relative, base);
  if (!['http:', 'https:', 'file:'].includes(url.protocol)) throw new Error(`${what} must be http(s) or file://, got ${url.protocol}`);
  return url.href;
}

/** The text at an http(s) or file:// URL; throws catalog_unreachable with the reason. */
export async function fetchCatalogText(url: string): Promise<string> {
  try {
    return (await readBounded(url, CATALOG_MAX_BYTES, FETCH_TIMEOUT_MS)).toString('utf8');
  } catch (error) {
    throw new ApiError(
      'catalog_unreachable',
      `The voice catalog at ${url} could not be read: ${failureReason(error)}. The last catalog read is kept.`,
      { cause: error },
    );
  }
}

/** The catalog in use: the last one read well (saved in the data folder), else the one Orator ships. */
export class CatalogStore {
  private current: LoadedCatalog | undefined;
  private readonly savedFile: string;

  constructor(
    dataDir: string,
    /** resources/voice-catalog.json of this build. */
    private readonly bundledFile: string,
  ) {
    this.savedFile = path.join(dataDir, SAVED_FILE);
  }

  async load(): Promise<LoadedCatalog> {
    if (this.current) return this.current;
    const saved = await readFile(this.savedFile, 'utf8').then(
      (text) => JSON.parse(text) as { info: CatalogInfo; text: string },
      () => undefined,
    );
    try {
      if (saved) return (this.current = { info: saved.info, voices: parseCatalog(saved.text, saved.info.url) });
    } catch {
      // a saved copy that no longer parses (another version's format): the shipped one serves
    }
    return (this.current = await this.readBundled());
  }

  /** Reads the catalog at `url` (empty: the shipped one); on success it replaces the current one and is saved. */
  async refresh(url: string): Promise<LoadedCatalog> {
    if (!url) {
      this.current = await this.readBundled();
      await this.save(this.current.info, await readFile(this.bundledFile, 'utf8'));
      return this.current;
    }
    const text = await fetchCatalogText(url);
    let voices: CatalogVoice[];
    try {
      voices = parseCatalog(text, url);
    } catch (error) {
      throw new ApiError(
        'catalog_unreachable',
        `The voice catalog at ${url} was refused: ${(error as Error).message}. The last catalog read is kept.`,
      );
    }
    const info = { url, ref: refOf(text), updated_at: new Date().toISOString() };
    await this.save(info, text);
    return (this.current = { info, voices });
  }

  private async readBundled(): Promise<LoadedCatalog> {
    // a build without its resources (an engine worker copied alone, in tests) offers no voices
    const text = await readFile(this.bundledFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
      return JSON.stringify({ version: 1, voices: [] });
    });
    const url = pathToFileURL(this.bundledFile).href;
    const updated = await stat(this.bundledFile).then(
      (found) => found.mtime,
      () => new Date(0),
    );
    return { info: { url, ref: refOf(text), updated_at: updated.toISOString() }, voices: parseCatalog(text, url) };
  }

  private async save(info: CatalogInfo, text: string): Promise<void> {
    // a name of its own per save: two refreshes at once must not rename each other's file away
    const temp = `${this.savedFile}.${randomUUID()}.tmp`;
    await writeFile(temp, JSON.stringify({ info, text }), { mode: PRIVATE_FILE_MODE });
    await rename(temp, this.savedFile);
  }
}

function refOf(text: string): string | null {
  const ref = (JSON.parse(text) as { ref?: unknown }).ref;
  return typeof ref === 'string' ? ref : null;
}
