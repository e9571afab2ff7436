/**
 * Test support: a voice catalog server on loopback serving the real formats. A Piper mirror
 * (voices.json with its md5 digests, and a raw Piper voice: .onnx, .onnx.json, MODEL_CARD), a
 * sherpa-onnx style release (checksum.txt and a .tar.bz2 of a model folder), and Orator's catalog
 * made from both by the catalog generator. Files are served with ETag and Range, and the test can
 * make the server misbehave (file-server.ts): cut a download half-way, ignore Range, trickle, or send
 * other bytes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { makeCatalog } from '../tools/voice-catalog';
import { startFileServer, type FileServer } from './file-server';
import { TINY_PIPER, tinyPiperFiles, writeTinyVits } from './tiny-vits';

export const PIPER_ID = `piper-${TINY_PIPER.key}`;
export const ARCHIVE_ID = `vits-piper-en_US-tiny-low`;
/**
 * Archives the catalog does not pin (no size, no sha256): their hash is read from the release's
 * checksum.txt at install time. The first is listed there, the second is not.
 */
export const UNPINNED_IDS = { listed: 'vits-piper-en_US-listed-low', unlisted: 'vits-piper-en_US-unlisted-low' };
export const CHECKSUM_LIST_PATH = '/sherpa/tts-models/checksum.txt';
/** An archive whose one entry is a symbolic link, and one whose entry climbs out with "../". */
export const HOSTILE_IDS = { link: 'vits-piper-en_US-link-low', climb: 'vits-piper-en_US-climb-low' };

const PIPER_DIR = 'en/en_US/tiny/medium';
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface CatalogServer extends FileServer {
  catalogUrl: string;
}

async function sherpaArchives(): Promise<Map<string, Buffer>> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'orator-catalog-'));
  try {
    const archives = new Map<string, Buffer>();
    const pack = async (name: string, folder: string, extra: string[] = []) => {
      const file = path.join(work, `${name}.tar.bz2`);
      execFileSync('tar', ['-C', work, ...extra, '-cjf', file, folder]);
      archives.set(`${name}.tar.bz2`, await readFile(file));
    };
    // the tiny model in a folder named as the archive, as sherpa-onnx's archives are
    const model = await writeTinyVits(work);
    for (const id of [ARCHIVE_ID, UNPINNED_IDS.listed, UNPINNED_IDS.unlisted]) {
      await mkdir(path.join(work, id));
      execFileSync('cp', ['-r', `${model}/.`, path.join(work, id)]);
      await pack(id, id);
    }
    await mkdir(path.join(work, HOSTILE_IDS.link));
    await symlink('/etc/passwd', path.join(work, HOSTILE_IDS.link, 'tokens.txt'));
    await pack(HOSTILE_IDS.link, HOSTILE_IDS.link);
    await pack(HOSTILE_IDS.climb, ARCHIVE_ID, ['--transform', `s,^${ARCHIVE_ID},../${HOSTILE_IDS.climb},`]);
    return archives;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The served tree: piper/voices.json and the voice's files, sherpa/checksum.txt and archives, catalog.json. */
async function buildFiles(): Promise<Map<string, Buffer>> {
  const files = new Map<string, Buffer>();
  const piper = tinyPiperFiles();
  const voiceFiles: Record<string, Buffer> = {
    [`${PIPER_DIR}/${TINY_PIPER.key}.onnx`]: piper.onnx,
    [`${PIPER_DIR}/${TINY_PIPER.key}.onnx.json`]: Buffer.from(piper.json),
    [`${PIPER_DIR}/MODEL_CARD`]: Buffer.from(piper.modelCard),
  };
  const voicesJson = {
    [TINY_PIPER.key]: {
      key: TINY_PIPER.key,
      name: 'tiny',
      language: {
        code: 'en_US',
        family: 'en',
        region: 'US',
        name_native: 'English',
        name_english: 'English',
        country_english: 'United States',
      },
      quality: 'medium',
      num_speakers: 1,
      speaker_id_map: {},
      files: Object.fromEntries(
        Object.entries(voiceFiles).map(([name, bytes]) => [name, { size_bytes: bytes.length, md5_digest: md5(bytes) }]),
      ),
      aliases: [],
    },
  };
  for (const [name, bytes] of Object.entries(voiceFiles)) files.set(`/piper/main/${name}`, bytes);
  files.set('/piper/voices.json', Buffer.from(JSON.stringify(voicesJson)));
  const archives = await sherpaArchives();
  for (const [name, bytes] of archives) files.set(`/sherpa/tts-models/${name}`, bytes);
  const listed = [...archives].filter(([name]) => name !== `${UNPINNED_IDS.unlisted}.tar.bz2`);
  files.set(CHECKSUM_LIST_PATH, Buffer.from(listed.map(([name, bytes]) => `${name}\t${sha256(bytes)}\n`).join('')));
  // Orator's catalog, made by the generator from the mirror's voices.json and checksum.txt, with
  // URLs relative to the catalog (a mirror is a folder of files and one JSON); the unpinned
  // archives get the checksum list's URL instead of a hash
  const unpinned = new Set(Object.values(UNPINNED_IDS).map((id) => `${id}.tar.bz2`));
  const assets = Object.fromEntries(
    listed
      .filter(([name]) => !unpinned.has(name))
      .map(([name, bytes]) => [`tts-models/${name}`, { size_bytes: bytes.length, sha256: sha256(bytes) }]),
  );
  const vits = [ARCHIVE_ID, HOSTILE_IDS.link, HOSTILE_IDS.climb, ...Object.values(UNPINNED_IDS)].map((archive) => ({
    archive,
    lang: 'en_US',
    name: archive.split('-')[3]!,
    quality: 'low',
    speakers: 1,
    source: 'https://example.invalid/model-card',
    license: 'Apache-2.0',
  }));
  const catalog = await makeCatalog(voicesJson as never, {
    piper_voices: { ref: 'main', base_url: 'piper/' },
    sherpa_onnx: { commit: 'test', release_url: 'sherpa/' },
    vits_piper: vits,
    kokoro: [],
    matcha: [],
    components: [],
    prefer_archive: [],
    release_assets: assets,
  });
  files.set('/catalog.json', Buffer.from(JSON.stringify(catalog)));
  return files;
}

export async function startCatalogServer(): Promise<CatalogServer> {
  const server = await startFileServer(await buildFiles());
  return Object.assign(server, { catalogUrl: `${server.url}/catalog.json` });
}

/**
 * Sets a gateway's voice_catalog_url (the admin token; the other settings as they are) and asks it
 * to read that catalog; answers the refresh's response (200, or 502 when the catalog is unreachable).
 */
export async function pointAtCatalog(gateway: { url: string; apiKey: string; adminToken: string }, catalogUrl: string): Promise<Response> {
  const settingsUrl = `${gateway.url}/api/v1/tts/settings`;
  const { settings } = (await (await fetch(settingsUrl, { headers: { authorization: `Bearer ${gateway.apiKey}` } })).json()) as {
    settings: Record<string, unknown>;
  };
  // host is the bind address, never changed over HTTP
  const { host: _host, ...rest } = settings;
  const admin = { authorization: `Bearer ${gateway.adminToken}` };
  const saved = await fetch(settingsUrl, {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ ...rest, voice_catalog_url: catalogUrl }),
  });
  if (saved.status !== 200) throw new Error(`PUT /settings answered ${saved.status}: ${await saved.text()}`);
  return fetch(`${gateway.url}/api/v1/tts/voice-library/refresh`, { method: 'POST', headers: admin });
}
