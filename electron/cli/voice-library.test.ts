import { execFile } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ARCHIVE_ID, PIPER_ID, startCatalogServer, type CatalogServer } from '../testing/catalog-server';
import { startTestGateway, type TestGateway } from '../testing/gateway';

// orator voices available | install | remove against a gateway reading the test catalog server.
const CLI = path.resolve('dist/cli.mjs');
let server: CatalogServer;
let gateway: TestGateway;
beforeAll(async () => {
  server = await startCatalogServer();
  gateway = await startTestGateway();
  const { settings } = (await (await gateway.api('/api/v1/tts/settings')).json()) as { settings: Record<string, unknown> };
  const { host: _host, ...rest } = settings;
  const admin = { authorization: `Bearer ${gateway.adminToken}` };
  await fetch(`${gateway.url}/api/v1/tts/settings`, {
    method: 'PUT',
    headers: { ...admin, 'content-type': 'application/json' },
    body: JSON.stringify({ ...rest, voice_catalog_url: server.catalogUrl }),
  });
  await fetch(`${gateway.url}/api/v1/tts/voice-library/refresh`, { method: 'POST', headers: admin });
}, 120_000);
afterAll(async () => {
  await gateway.stop();
  await server.close();
});

function orator(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, ORATOR_DATA_DIR: gateway.dataDir } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

describe('orator voices', { timeout: 240_000 }, () => {
  it('lists the library, installs a voice with the admin token, and removes it', async () => {
    const available = await orator(['voices', 'available', '--lang', 'en']);
    expect(available.code).toBe(0);
    expect(available.stdout).toMatch(new RegExp(`^${ARCHIVE_ID} +en-US +low +0\\.0 +Apache-2\\.0 +available`, 'm'));
    expect(available.stdout).toMatch(new RegExp(`^${PIPER_ID} +en-US +medium .* unknown +available`, 'm'));

    const refused = await orator(['voices', 'install', PIPER_ID]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/under unknown .*run again with --accept-license\.\n$/);

    const installed = await orator(['voices', 'install', ARCHIVE_ID]);
    expect(installed).toMatchObject({ code: 0, stdout: `${ARCHIVE_ID} installed: speak with -v sherpa-onnx:${ARCHIVE_ID}\n` });
    const said = await orator(['voices', '--engine', 'sherpa-onnx']);
    expect(said.stdout).toContain(`sherpa-onnx:${ARCHIVE_ID}`);
    expect(await orator(['voices', 'remove', ARCHIVE_ID])).toMatchObject({ code: 0, stdout: `${ARCHIVE_ID} removed\n` });
  });

  it('says what is wrong with the command line, exit code 2', async () => {
    expect(await orator(['voices', 'install'])).toMatchObject({ code: 2, stderr: expect.stringContaining('needs a voice id') });
    expect(await orator(['voices', 'fetch', 'x'])).toMatchObject({
      code: 2,
      stderr: expect.stringContaining('available, install or remove'),
    });
    expect(await orator(['voices', 'install', 'no-such-voice'])).toMatchObject({
      code: 1,
      stderr: expect.stringContaining('No voice "no-such-voice"'),
    });
  });
});
