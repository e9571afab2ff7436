import { mkdtemp, readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LibraryVoice, VoiceManifest } from '../contract';
import { expectSpeech } from '../testing/audio';
import { createHash } from 'node:crypto';
import {
  ARCHIVE_ID,
  CHECKSUM_LIST_PATH,
  HOSTILE_IDS,
  PIPER_ID,
  pointAtCatalog,
  startCatalogServer,
  UNPINNED_IDS,
  type CatalogServer,
} from '../testing/catalog-server';
import { readEvents } from '../testing/events';
import { useTestGateways, type TestGateway } from '../testing/gateway';
import { spawnGateway } from '../testing/process';
import { until } from '../testing/until';
import { ADMIN_TOKEN_FILE } from '../storage/credentials';
import { TINY_VITS, tinyVitsLength } from '../testing/tiny-vits';

// The voice library end to end against a catalog server on loopback (testing/catalog-server.ts):
// real downloads, real archives, the real model process, audio decoded at the end.

const LIBRARY = '/api/v1/tts/voice-library';
let server: CatalogServer;
beforeAll(async () => {
  server = await startCatalogServer();
});
afterAll(() => server.close());
const gateways = useTestGateways();

const admin = (gateway: TestGateway, route: string, init: RequestInit & { json?: unknown } = {}) =>
  fetch(gateway.url + route, {
    method: init.method ?? 'POST',
    headers: { authorization: `Bearer ${gateway.adminToken}`, ...(init.json === undefined ? {} : { 'content-type': 'application/json' }) },
    ...(init.json === undefined ? {} : { body: JSON.stringify(init.json) }),
  });

/** A gateway whose voice_catalog_url is the test server's catalog, read once. */
async function gatewayOnCatalog(overrides = {}): Promise<TestGateway> {
  const gateway = await gateways.start(overrides);
  expect((await pointAtCatalog(gateway, server.catalogUrl)).status).toBe(200);
  return gateway;
}

async function entry(gateway: Pick<TestGateway, 'api'>, id: string): Promise<LibraryVoice> {
  return (await (await gateway.api(`${LIBRARY}/${encodeURIComponent(id)}`)).json()) as LibraryVoice;
}

function settled(gateway: Pick<TestGateway, 'api'>, id: string): Promise<LibraryVoice> {
  return until(
    async () => {
      const voice = await entry(gateway, id);
      return voice.state === 'queued' || voice.state === 'installing' ? undefined : voice;
    },
    240_000,
    `${id} to be installed`,
  );
}

const modelsOf = async (gateway: TestGateway) => (await readdir(path.join(gateway.dataDir, 'models')).catch(() => [])).sort();

async function speak(gateway: TestGateway, voice: string, text: string): Promise<number> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text, voice });
  expect(response.status).toBe(200);
  return expectSpeech(Buffer.from(await response.arrayBuffer()));
}

describe('the voice library', { timeout: 300_000 }, () => {
  beforeAll(() => {
    server.misbehave = {};
  });

  it('installs a raw Piper voice (licence accepted), makes it sherpa-ready, speaks with it, and removes it', async () => {
    const gateway = await gatewayOnCatalog();
    const listed = (await (await gateway.api(`${LIBRARY}?language=en`)).json()) as { catalog: { url: string }; voices: LibraryVoice[] };
    expect(listed.catalog.url).toBe(server.catalogUrl);
    const piper = listed.voices.find((v) => v.id === PIPER_ID)!;
    expect(piper).toMatchObject({ engine: 'piper', language: 'en-US', quality: 'medium', state: 'available', pinned: true });
    // the model card, where the mirror has it (the catalog names it relative to itself)
    expect(piper.license).toEqual({
      id: 'unknown',
      url: `${server.url}/piper/main/en/en_US/tiny/medium/MODEL_CARD`,
      accept_required: true,
    });

    const refused = await admin(gateway, `${LIBRARY}/${PIPER_ID}/install`);
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'license_not_accepted',
      message: expect.stringContaining('MODEL_CARD'),
    });

    const events = await gateway.api('/api/v1/tts/events');
    const accepted = await admin(gateway, `${LIBRARY}/${PIPER_ID}/install`, { json: { accept_license: true } });
    expect(accepted.status).toBe(202);
    const seen: { event: string; state: string; bytes_done?: number }[] = [];
    for await (const event of readEvents(events)) {
      const voice = event.data as LibraryVoice;
      if (voice.id !== PIPER_ID) continue;
      seen.push({ event: event.event, state: voice.state, ...(voice.bytes_done === undefined ? {} : { bytes_done: voice.bytes_done }) });
      if (event.event !== 'voice-progress') break;
    }
    expect(seen.at(-1)).toMatchObject({ event: 'voice-installed', state: 'installed' });
    expect(seen[0]).toMatchObject({ event: 'voice-progress', state: 'queued' });

    const installed = await entry(gateway, PIPER_ID);
    expect(installed).toMatchObject({ state: 'installed', voice_id: `sherpa-onnx:${PIPER_ID}` });
    expect(await modelsOf(gateway)).toEqual([PIPER_ID]);
    const folder = (await readdir(path.join(gateway.dataDir, 'models', PIPER_ID))).sort();
    expect(folder).toEqual(['MODEL_CARD', 'en_US-tiny-medium.onnx', 'en_US-tiny-medium.onnx.json', 'orator-voice.json', 'tokens.txt']);
    // in GET /engines without a restart, and it speaks through the bundled sherpa-onnx
    const engine = (await (await gateway.api('/api/v1/tts/engines/sherpa-onnx')).json()) as { voices: { id: string; quality: string }[] };
    expect(engine.voices).toContainEqual(expect.objectContaining({ id: installed.voice_id, quality: 'high' }));
    expect(await speak(gateway, installed.voice_id!, 'Hello from a Piper voice.')).toBeGreaterThan(0.5);

    expect((await admin(gateway, `${LIBRARY}/${PIPER_ID}/install`, { json: { accept_license: true } })).status).toBe(200);
    expect((await admin(gateway, `${LIBRARY}/${PIPER_ID}`, { method: 'DELETE' })).status).toBe(204);
    expect(await entry(gateway, PIPER_ID)).toMatchObject({ state: 'available' });
    expect(await modelsOf(gateway)).toEqual([]);
    const after = (await (await gateway.api('/api/v1/tts/engines/sherpa-onnx')).json()) as { voices: unknown[]; available: boolean };
    expect(after.available).toBe(false);
  });

  it('installs a sherpa-onnx .tar.bz2 resumed after a cut, counting the bytes fetched twice, and speaks with it', async () => {
    const gateway = await gatewayOnCatalog();
    const archive = `/sherpa/tts-models/${ARCHIVE_ID}.tar.bz2`;
    const size = server.files.get(archive)!.length;
    server.served.delete(archive);
    server.ranges.length = 0;
    server.misbehave = { cutHalfway: `${ARCHIVE_ID}.tar.bz2` };
    expect((await admin(gateway, `${LIBRARY}/${ARCHIVE_ID}/install`)).status).toBe(202);
    const voice = await settled(gateway, ARCHIVE_ID);
    expect(voice).toMatchObject({ state: 'installed', voice_id: `sherpa-onnx:${ARCHIVE_ID}` });
    // half, then the rest from where it stopped, validated by its ETag
    expect(server.served.get(archive)).toBe(Math.floor(size / 2) + (size - Math.floor(size / 2)));
    expect(server.ranges).toEqual([
      expect.stringMatching(new RegExp(`^${archive} bytes=${Math.floor(size / 2)}- if-range="[0-9a-f]{16}"$`)),
    ]);
    const text = 'Resumed and unpacked.';
    expect(await speak(gateway, voice.voice_id!, text)).toBe(tinyVitsLength(text) / TINY_VITS.sampleRate);
  });

  it('starts again from zero when the server ignores Range', async () => {
    const gateway = await gatewayOnCatalog();
    const archive = `/sherpa/tts-models/${ARCHIVE_ID}.tar.bz2`;
    const size = server.files.get(archive)!.length;
    server.served.delete(archive);
    server.misbehave = { cutHalfway: `${ARCHIVE_ID}.tar.bz2`, ignoreRange: true };
    expect((await admin(gateway, `${LIBRARY}/${ARCHIVE_ID}/install`)).status).toBe(202);
    expect(await settled(gateway, ARCHIVE_ID)).toMatchObject({ state: 'installed' });
    expect(server.served.get(archive)).toBe(Math.floor(size / 2) + size);
  });

  it('refuses a file whose hash is wrong, twice, naming the file and both hashes, and installs nothing', async () => {
    const gateway = await gatewayOnCatalog();
    const name = `/piper/main/en/en_US/tiny/medium/MODEL_CARD`;
    const wrong = Buffer.alloc(server.files.get(name)!.length, 'x');
    server.served.delete(name);
    server.misbehave = { replace: { suffix: 'MODEL_CARD', bytes: wrong } };
    expect((await admin(gateway, `${LIBRARY}/${PIPER_ID}/install`, { json: { accept_license: true } })).status).toBe(202);
    const voice = await settled(gateway, PIPER_ID);
    expect(voice.state).toBe('failed');
    expect(voice.error).toMatch(
      /^MODEL_CARD has md5 [0-9a-f]{32}, the catalog says [0-9a-f]{32} \(downloaded twice; nothing was installed\)$/,
    );
    expect(server.served.get(name)).toBe(2 * wrong.length);
    expect(await modelsOf(gateway)).toEqual([]);
    server.misbehave = {};
  });

  it('refuses archives with a symbolic link or a "../" entry', async () => {
    const gateway = await gatewayOnCatalog();
    for (const [id, why] of [
      [HOSTILE_IDS.link, 'is a SymbolicLink (links and devices are refused)'],
      [HOSTILE_IDS.climb, 'has a ".." segment'],
    ] as const) {
      expect((await admin(gateway, `${LIBRARY}/${id}/install`)).status).toBe(202);
      const voice = await settled(gateway, id);
      expect(voice).toMatchObject({ state: 'failed', error: expect.stringContaining(why) });
    }
    expect(await modelsOf(gateway)).toEqual([]);
  });

  it('refuses an install that would go below the disk floor before downloading anything', async () => {
    const gateway = await gatewayOnCatalog({ minFreeBytes: 2 ** 50 });
    server.served.clear();
    const refused = await admin(gateway, `${LIBRARY}/${ARCHIVE_ID}/install`);
    expect(refused.status).toBe(507);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('insufficient_storage');
    expect(server.served.size).toBe(0);
  });

  it('keeps the last catalog when the catalog server is unreachable: 502 with the reason', async () => {
    const gateway = await gatewayOnCatalog();
    const down = await startCatalogServer();
    await down.close();
    const refreshed = await pointAtCatalog(gateway, down.catalogUrl);
    expect(refreshed.status).toBe(502);
    expect(((await refreshed.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'catalog_unreachable',
      message: expect.stringMatching(/could not be read: .*ECONNREFUSED.*The last catalog read is kept\.$/),
    });
    const listed = (await (await gateway.api(LIBRARY)).json()) as { catalog: { url: string }; voices: LibraryVoice[] };
    expect(listed.catalog.url).toBe(server.catalogUrl);
    expect(listed.voices.map((v) => v.id)).toContain(ARCHIVE_ID);
  });

  it('answers 404 for an unknown voice, and lets only the admin token install, remove and refresh', async () => {
    const gateway = await gatewayOnCatalog();
    expect((await gateway.api(`${LIBRARY}/no-such-voice`)).status).toBe(404);
    expect((await admin(gateway, `${LIBRARY}/no-such-voice/install`)).status).toBe(404);
    for (const [method, route] of [
      ['POST', `${LIBRARY}/${ARCHIVE_ID}/install`],
      ['DELETE', `${LIBRARY}/${ARCHIVE_ID}`],
      ['POST', `${LIBRARY}/refresh`],
    ] as const) {
      const response = await gateway.api(route, { method });
      expect(response.status).toBe(403);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('admin_required');
    }
    expect((await fetch(gateway.url + LIBRARY, { headers: { authorization: `Bearer ${gateway.adminToken}` } })).status).toBe(401);
    expect((await gateway.api(`${LIBRARY}?quality=medium&state=available`)).status).toBe(200);
  });
});

const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

describe('an archive the catalog does not pin: its sha256 from the release checksum list', { timeout: 300_000 }, () => {
  const listUrl = () => server.url + CHECKSUM_LIST_PATH;
  const archiveOf = (id: string) => `/sherpa/tts-models/${id}.tar.bz2`;
  beforeAll(() => {
    server.misbehave = {};
  });

  it('installs it verified against the list read at install time, records where the hash came from, and speaks', async () => {
    const gateway = await gatewayOnCatalog();
    const id = UNPINNED_IDS.listed;
    expect(await entry(gateway, id)).toMatchObject({ pinned: false, verification: 'checksum_list', size_bytes: null, state: 'available' });
    const before = Date.now();
    expect((await admin(gateway, `${LIBRARY}/${id}/install`)).status).toBe(202);
    const voice = await settled(gateway, id);
    expect(voice).toMatchObject({
      state: 'installed',
      voice_id: `sherpa-onnx:${id}`,
      hash_source: { kind: 'checksum_list', url: listUrl(), fetched_at: expect.any(String) },
    });
    expect(Date.parse((voice.hash_source as { fetched_at: string }).fetched_at)).toBeGreaterThanOrEqual(before - 1000);
    const archive = server.files.get(archiveOf(id))!;
    const manifest = JSON.parse(await readFile(path.join(gateway.dataDir, 'models', id, 'orator-voice.json'), 'utf8')) as VoiceManifest;
    expect(manifest.files).toEqual([
      {
        url: server.url + archiveOf(id),
        size_bytes: archive.length,
        sha256: createHash('sha256').update(archive).digest('hex'),
        hash_source: voice.hash_source,
      },
    ]);
    const text = 'Verified by the release checksum list.';
    expect(await speak(gateway, voice.voice_id!, text)).toBe(tinyVitsLength(text) / TINY_VITS.sampleRate);
    // a voice whose hash the catalog pins says so
    expect((await admin(gateway, `${LIBRARY}/${ARCHIVE_ID}/install`)).status).toBe(202);
    expect(await settled(gateway, ARCHIVE_ID)).toMatchObject({
      state: 'installed',
      verification: 'catalog',
      hash_source: { kind: 'catalog' },
    });
  });

  it('refuses, downloading nothing, when the list lacks the file, cannot be read, or is huge or binary', async () => {
    const gateway = await gatewayOnCatalog();
    server.served.clear();
    const unlisted = await admin(gateway, `${LIBRARY}/${UNPINNED_IDS.unlisted}/install`);
    expect(unlisted.status).toBe(409);
    expect(await errorOf(unlisted)).toEqual({
      code: 'checksum_not_listed',
      message: expect.stringMatching(
        new RegExp(
          `^The checksum list ${listUrl()} has no line for ${UNPINNED_IDS.unlisted}\\.tar\\.bz2, so Orator cannot verify it and installs nothing\\.`,
        ),
      ),
    });
    const list = server.files.get(CHECKSUM_LIST_PATH)!;
    const refusals: [string, Buffer | undefined, RegExp][] = [
      ['unreachable', undefined, /could not be read: HTTP 404 Not Found\. Nothing was downloaded\.$/],
      ['binary', Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131 + 7) % 256)), /could not be read: it is not UTF-8 text\./],
      ['not a list', Buffer.from('<html>rate limited</html>\n'), /could not be read: line 1 is not "<name> <sha256>"\./],
      ['huge', Buffer.concat([list, Buffer.alloc(2 * 1024 * 1024, 'a')]), /could not be read: it is larger than 1048576 bytes\./],
    ];
    for (const [why, bytes, reason] of refusals) {
      if (bytes) server.files.set(CHECKSUM_LIST_PATH, bytes);
      else server.files.delete(CHECKSUM_LIST_PATH);
      const refused = await admin(gateway, `${LIBRARY}/${UNPINNED_IDS.listed}/install`);
      expect(refused.status, why).toBe(502);
      const error = await errorOf(refused);
      expect(error.code, why).toBe('voice_source_unreachable');
      expect(error.message, why).toContain(`The checksum list ${listUrl()}, which holds the hash of ${UNPINNED_IDS.listed}.tar.bz2,`);
      expect(error.message, why).toMatch(reason);
    }
    server.files.set(CHECKSUM_LIST_PATH, list);
    expect(await entry(gateway, UNPINNED_IDS.listed)).toMatchObject({ state: 'available' });
    expect([...server.served.keys()].filter((name) => name.endsWith('.tar.bz2'))).toEqual([]);
    expect(await modelsOf(gateway)).toEqual([]);
  });

  it('refuses an archive whose bytes differ from the list, naming both hashes, and installs nothing', async () => {
    const gateway = await gatewayOnCatalog();
    const id = UNPINNED_IDS.listed;
    const wrong = Buffer.alloc(server.files.get(archiveOf(id))!.length, 'x');
    server.misbehave = { replace: { suffix: `${id}.tar.bz2`, bytes: wrong } };
    expect((await admin(gateway, `${LIBRARY}/${id}/install`)).status).toBe(202);
    const voice = await settled(gateway, id);
    server.misbehave = {};
    expect(voice.state).toBe('failed');
    expect(voice.error).toMatch(
      new RegExp(
        `^${id}\\.tar\\.bz2 has sha256 [0-9a-f]{64}, the checksum list ${listUrl()} says [0-9a-f]{64} \\(downloaded twice; nothing was installed\\)$`,
      ),
    );
    expect(await modelsOf(gateway)).toEqual([]);
  });

  it('checks the disk with the size the server gives before downloading', async () => {
    const gateway = await gatewayOnCatalog({ minFreeBytes: 2 ** 50 });
    server.served.clear();
    const refused = await admin(gateway, `${LIBRARY}/${UNPINNED_IDS.listed}/install`);
    expect(refused.status).toBe(507);
    expect((await errorOf(refused)).code).toBe('insufficient_storage');
    expect([...server.served.keys()]).toEqual([CHECKSUM_LIST_PATH]);
  });
});

describe('a gateway killed mid-install', { timeout: 300_000 }, () => {
  it('starts clean (staging cleared, nothing half-installed) and installs again', async () => {
    // the gateway to kill is a process of its own, pointed at the catalog itself
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-test-'));
    const archive = `${ARCHIVE_ID}.tar.bz2`;
    server.misbehave = { trickle: { suffix: archive, everyMs: 200 } };
    const child = await spawnGateway(['--data-dir', dataDir]);
    try {
      const adminToken = (await readFile(path.join(dataDir, ADMIN_TOKEN_FILE), 'utf8')).trim();
      expect((await pointAtCatalog({ ...child, adminToken }, server.catalogUrl)).status).toBe(200);
      const install = await fetch(`${child.url}${LIBRARY}/${ARCHIVE_ID}/install`, {
        method: 'POST',
        headers: { authorization: `Bearer ${adminToken}` },
      });
      expect(install.status).toBe(202);
      await until(async () => ((await entry(child, ARCHIVE_ID)).bytes_done ? true : undefined), 60_000, 'the first bytes');
      expect((await readdir(path.join(dataDir, 'models'))).sort()).toEqual(['.staging']);
    } finally {
      child.child.kill('SIGKILL');
    }
    await new Promise((resolve) => child.child.once('exit', resolve));
    server.misbehave = {};
    const again = await gateways.start({ dataDir });
    expect(await modelsOf(again)).toEqual([]);
    expect(await entry(again, ARCHIVE_ID)).toMatchObject({ state: 'available' });
    expect((await admin(again, `${LIBRARY}/${ARCHIVE_ID}/install`)).status).toBe(202);
    expect(await settled(again, ARCHIVE_ID)).toMatchObject({ state: 'installed' });
  });
});
