/**
 * Test support: a voice catalog server on loopback serving the real formats. A Piper mirror
 * (voices.json with its md5 digests, and a raw Piper voice: .onnx, .onnx.json, MODEL_CARD), a
 * sherpa-onnx style release (checksum.txt and a .tar.bz2 of a model folder), and Orator's catalog
 * made from both by the catalog generator. Files are served with ETag and Range, and the test can
 * make the server misbehave: cut a download half-way, ignore Range, trickle, or send other bytes.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, rm, symlink } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { makeCatalog } from '../tools/voice-catalog';
import { TINY_PIPER, tinyPiperFiles, writeTinyVits } from './tiny-vits';

export const PIPER_ID = `piper-${TINY_PIPER.key}`;
export const ARCHIVE_ID = `vits-piper-en_US-tiny-low`;
/** An archive whose one entry is a symbolic link, and one whose entry climbs out with "../". */
export const HOSTILE_IDS = { link: 'vits-piper-en_US-link-low', climb: 'vits-piper-en_US-climb-low' };

const PIPER_DIR = 'en/en_US/tiny/medium';
const md5 = (bytes: Buffer) => createHash('md5').update(bytes).digest('hex');
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

export interface Misbehaviour {
  /** The first answer for a path whose name ends so stops after half its bytes (the socket is destroyed). */
  cutHalfway?: string;
  /** Range headers are ignored: every answer is the whole file, 200. */
  ignoreRange?: boolean;
  /** Paths ending so are sent `bytes` (64 KiB unless said) at a time, this many ms apart. */
  trickle?: { suffix: string; everyMs: number; bytes?: number };
  /** Paths ending so are answered with these bytes instead. */
  replace?: { suffix: string; bytes: Buffer };
}

export interface CatalogServer {
  url: string;
  catalogUrl: string;
  files: Map<string, Buffer>;
  misbehave: Misbehaviour;
  /** Body bytes sent per path, and the Range headers received. */
  served: Map<string, number>;
  ranges: string[];
  close(): Promise<void>;
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
    const renamed = path.join(work, ARCHIVE_ID);
    await mkdir(renamed);
    execFileSync('cp', ['-r', `${model}/.`, renamed]);
    await pack(ARCHIVE_ID, ARCHIVE_ID);
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
  const checksums = [...archives].map(([name, bytes]) => `${name}\t${sha256(bytes)}`).join('\n');
  files.set('/sherpa/tts-models/checksum.txt', Buffer.from(checksums));
  // Orator's catalog, made by the generator from the mirror's voices.json and checksum.txt, with
  // URLs relative to the catalog (a mirror is a folder of files and one JSON)
  const assets = Object.fromEntries(
    checksums.split('\n').map((line) => {
      const [name, hash] = line.split('\t');
      return [`tts-models/${name}`, { size_bytes: archives.get(name!)!.length, sha256: hash! }];
    }),
  );
  const vits = [ARCHIVE_ID, HOSTILE_IDS.link, HOSTILE_IDS.climb].map((archive) => ({
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

function serve(server: CatalogServer, request: IncomingMessage, response: ServerResponse): void {
  const name = decodeURIComponent(new URL(request.url!, server.url).pathname);
  const replaced = server.misbehave.replace && name.endsWith(server.misbehave.replace.suffix) ? server.misbehave.replace.bytes : undefined;
  const body = replaced ?? server.files.get(name);
  if (!body) return void response.writeHead(404).end('not found');
  const etag = `"${sha256(body).slice(0, 16)}"`;
  let start = 0;
  const range = /^bytes=(\d+)-$/.exec(request.headers.range ?? '');
  if (request.headers.range) server.ranges.push(`${name} ${request.headers.range} if-range=${request.headers['if-range'] ?? ''}`);
  const ifRangeOk = !request.headers['if-range'] || request.headers['if-range'] === etag;
  if (range && !server.misbehave.ignoreRange && ifRangeOk) start = Number(range[1]);
  if (start > body.length) return void response.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
  const part = body.subarray(start);
  response.writeHead(start > 0 ? 206 : 200, {
    'content-length': part.length,
    'accept-ranges': 'bytes',
    etag,
    ...(start > 0 ? { 'content-range': `bytes ${start}-${body.length - 1}/${body.length}` } : {}),
  });
  const count = (bytes: number) => server.served.set(name, (server.served.get(name) ?? 0) + bytes);
  const { cutHalfway, trickle } = server.misbehave;
  if (cutHalfway && name.endsWith(cutHalfway)) {
    server.misbehave.cutHalfway = undefined;
    const half = Math.floor(part.length / 2);
    count(half);
    return void response.write(part.subarray(0, half), () => setTimeout(() => response.destroy(), 50));
  }
  if (trickle && name.endsWith(trickle.suffix)) {
    let at = 0;
    const timer = setInterval(() => {
      const piece = part.subarray(at, at + (trickle.bytes ?? 65_536));
      at += piece.length;
      count(piece.length);
      if (at >= part.length) {
        clearInterval(timer);
        response.end(piece);
      } else response.write(piece);
    }, trickle.everyMs);
    response.on('close', () => clearInterval(timer));
    return;
  }
  count(part.length);
  response.end(part);
}

export async function startCatalogServer(): Promise<CatalogServer> {
  const files = await buildFiles();
  const server: CatalogServer = {
    url: '',
    catalogUrl: '',
    files,
    misbehave: {},
    served: new Map(),
    ranges: [],
    close: () => new Promise<void>((resolve) => http.close(() => resolve()).closeAllConnections()),
  };
  const http: Server = createServer((request, response) => serve(server, request, response));
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  server.url = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  server.catalogUrl = `${server.url}/catalog.json`;
  return server;
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
