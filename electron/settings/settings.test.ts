import { chmod, mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { API_KEY_PATH, RENDER_CACHE_PATH, SETTINGS_PATH, type RenderCacheStats, type SettingsUpdate, type SettingsView } from '../contract';
import { configFromArgs, type GatewayConfig } from '../gateway/config';
import { DESKTOP_ORIGIN } from '../gateway/plugins/desktop-origin';
import { startGateway, type Gateway } from '../gateway/start';
import { resolveSettings } from './resolve';
import { readSavedSettings, settingsFile, type SavedSettings } from './store';
import { fromConfig } from './table';

const WORKER_FILE = path.resolve('dist/synth-worker.mjs');
const open: { gateway: Gateway; dataDir: string }[] = [];

/** A gateway of the test's own, stopped after it: for tests that change settings or the key. */
async function start(overrides: Partial<GatewayConfig> = {}, dataDir?: string) {
  const started = await launch(overrides, dataDir);
  open.push(started);
  return started;
}

async function launch(overrides: Partial<GatewayConfig> = {}, dataDir?: string) {
  const dir = dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'orator-settings-')));
  const gateway = await startGateway({ ...configFromArgs([], {}), port: 0, dataDir: dir, ...overrides }, { workerFile: WORKER_FILE });
  const api = (route: string, init: RequestInit = {}, key = gateway.apiKey) =>
    fetch(gateway.url + route, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
    });
  const adminToken = (await readFile(gateway.adminTokenFile, 'utf8')).trim();
  /** PUT /settings with the admin token. */
  const put = (body: unknown, key = adminToken) => api(SETTINGS_PATH, { method: 'PUT', body: JSON.stringify(body) }, key);
  const update = async () => {
    const { host: _host, ...settings } = ((await (await api(SETTINGS_PATH)).json()) as SettingsView).settings;
    return settings;
  };
  return { gateway, dataDir: dir, api, adminToken, put, update };
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

/** A folder of the test's own: private, so Orator trusts it. */
async function privateDir(parent: string, name: string, mode = 0o700): Promise<string> {
  const dir = path.join(parent, name);
  await mkdir(dir);
  await chmod(dir, mode);
  return dir;
}

afterEach(async () => {
  for (const { gateway, dataDir } of open.splice(0)) {
    await gateway.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

/**
 * One gateway for the tests that are refused a change or change nothing; the test of the API key's
 * 403 checks that the settings are still the defaults.
 */
let unchanged: Awaited<ReturnType<typeof launch>>;
beforeAll(async () => {
  unchanged = await launch();
});
afterAll(async () => {
  await unchanged.gateway.close();
  await rm(unchanged.dataDir, { recursive: true, force: true });
});

describe('settings API', () => {
  it('shows the running settings, saves only changes (0600) and applies the inline threshold at once', async () => {
    const { api, dataDir, put, update } = await start();
    const before = (await (await api(SETTINGS_PATH)).json()) as SettingsView;
    expect(before.restart_required).toEqual([]);
    expect(before.api_key_locked).toBe(false);
    expect(before.settings).toMatchObject({ host: '127.0.0.1', port: 0, inline_threshold: 1000, close_to_tray: true });

    const models = await privateDir(dataDir, 'voices');
    const current = await update();
    // not the default (one per core), so it waits for a restart on any machine
    const workers = current.workers === 1 ? 2 : 1;
    const next: SettingsUpdate = { ...current, inline_threshold: 5, retention_hours: 24, workers, models_dir: models };
    const response = await put(next);
    expect(response.status).toBe(200);
    const after = (await response.json()) as SettingsView;
    expect(after.settings).toMatchObject({ inline_threshold: 5, retention_hours: 24, host: '127.0.0.1' });
    expect(after.restart_required.sort()).toEqual(['models_dir', 'workers']);

    // Only what differs from the defaults is written, so later default changes still reach this user.
    expect(readSavedSettings(dataDir)).toEqual({ inline_threshold: 5, retention_hours: 24, workers, models_dir: models });
    expect((await stat(settingsFile(dataDir))).mode & 0o777).toBe(0o600);

    const synth = await api('/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text: 'Longer than five.' }) });
    expect(synth.status).toBe(202);
  });

  it('rejects unknown fields, out-of-range values and the bind address with invalid_request', async () => {
    const { put, update } = unchanged;
    const settings = await update();
    for (const body of [{ ...settings, port: 70000 }, { ...settings, colour: 'red' }, { ...settings, host: '0.0.0.0' }, { port: 1 }]) {
      const response = await put(body);
      expect(response.status).toBe(400);
      expect(await errorCode(response)).toBe('invalid_request');
    }
  });

  it('regenerates the key with the admin token: the old key fails at once, the new one is stored', async () => {
    const { gateway, api, adminToken } = await start();
    const oldKey = gateway.apiKey;
    const response = await api(API_KEY_PATH, { method: 'POST', body: '{}' }, adminToken);
    expect(response.status).toBe(200);
    const { api_key: newKey } = (await response.json()) as { api_key: string };
    expect(newKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(newKey).not.toBe(oldKey);
    expect(gateway.apiKey).toBe(newKey);
    expect((await readFile(gateway.apiKeyFile, 'utf8')).trim()).toBe(newKey);
    expect((await api(SETTINGS_PATH, {}, oldKey)).status).toBe(401);
    expect((await api(SETTINGS_PATH, {}, newKey)).status).toBe(200);
  });

  it('refuses to regenerate a key fixed by --api-key', async () => {
    const { api, adminToken } = await start({ apiKey: 'fixed-key-for-this-run' });
    expect(((await (await api(SETTINGS_PATH)).json()) as SettingsView).api_key_locked).toBe(true);
    const response = await api(API_KEY_PATH, { method: 'POST', body: '{}' }, adminToken);
    expect(response.status).toBe(409);
    expect(await response.json()).toMatchObject({
      error: { code: 'setting_locked', message: expect.stringMatching(/^Not replaced: the API key is set by .+ for this run/) },
    });
  });

  it('applies saved settings at the next start on the same data dir', async () => {
    const first = await start();
    const saved = await first.put({
      ...(await first.update()),
      max_text_length: 50,
      workers: 1,
      engine_timeout_s: 300,
      render_cache_mb: 3,
    });
    const { restart_required } = (await saved.json()) as SettingsView;
    expect(restart_required).toContain('engine_timeout_s');
    // applied when saved (render-cache.test.ts), and kept for the next start
    expect(restart_required).not.toContain('render_cache_mb');
    // one gateway per data dir: the first one stops before the next start
    await first.gateway.close();
    open.splice(
      open.findIndex((o) => o.gateway === first.gateway),
      1,
    );
    const second = await start({ port: 0 }, first.dataDir);
    const view = (await (await second.api(SETTINGS_PATH)).json()) as SettingsView;
    expect(view.settings).toMatchObject({ max_text_length: 50, workers: 1, engine_timeout_s: 300, render_cache_mb: 3 });
    expect(view.sources.engine_timeout_s).toEqual({ source: 'saved', editable: true });
    expect(view.restart_required).toEqual([]);
    // the render cache opened with the saved bound
    const cache = (await (await second.api(RENDER_CACHE_PATH)).json()) as RenderCacheStats;
    expect(cache.max_bytes).toBe(3 * 1024 * 1024);
    const tooLong = await second.api('/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(51) }) });
    expect(tooLong.status).toBe(413);
  });
});

describe('admin token', () => {
  it('is its own secret: 32 random bytes in <data-dir>/admin-token, 0600, never the API key', async () => {
    const { gateway, adminToken, dataDir } = unchanged;
    expect(adminToken).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(adminToken).not.toBe(gateway.apiKey);
    expect(gateway.adminTokenFile).toBe(path.join(dataDir, 'admin-token'));
    expect((await stat(gateway.adminTokenFile)).mode & 0o777).toBe(0o600);
  });

  it('alone changes settings and the key: the API key gets 403 admin_required and changes nothing', async () => {
    const { gateway, api, dataDir, put, update } = unchanged;
    const refused = await put({ ...(await update()), inline_threshold: 7 }, gateway.apiKey);
    expect(refused.status).toBe(403);
    expect(await errorCode(refused)).toBe('admin_required');
    const regenerate = await api(API_KEY_PATH, { method: 'POST', body: '{}' });
    expect(regenerate.status).toBe(403);
    expect(await errorCode(regenerate)).toBe('admin_required');
    expect(readSavedSettings(dataDir)).toEqual({});
    expect((await update()).inline_threshold).toBe(1000);
  });

  it('speaks nothing: every speech and job route answers 401 to it', async () => {
    const { api, adminToken } = unchanged;
    const synth = await api('/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text: 'Hello.' }) }, adminToken);
    expect(synth.status).toBe(401);
    expect(await errorCode(synth)).toBe('unauthorized');
    expect((await api('/api/v1/tts/jobs', {}, adminToken)).status).toBe(401);
    expect((await api('/api/v1/tts/engines', {}, adminToken)).status).toBe(401);
    expect((await api(SETTINGS_PATH, {}, adminToken)).status).toBe(200);
  });
});

describe('programs and folders in settings', () => {
  it('saves an engine program only when it is that engine, trusted and the engine runs programs', async () => {
    const { put, update, dataDir, gateway } = await start();
    const settings = await update();
    const writable = path.join(await privateDir(dataDir, 'bin'), 'espeak-ng');
    await writeFile(writable, '#!/bin/sh\n', { mode: 0o777 });
    await chmod(writable, 0o777);
    const refused: Record<string, string>[] = [
      { pico2wave: '/bin/cat' }, // not pico2wave: the attack of the review (an editor as pico2wave)
      { 'espeak-ng-system': 'espeak-ng' }, // not an absolute path
      { 'espeak-ng-system': writable }, // others may change it
      { 'espeak-ng': '/usr/bin/espeak-ng' }, // the embedded engine runs no program
      { 'no-such-engine': '/usr/bin/espeak-ng' },
    ];
    for (const engine_executables of refused) {
      const response = await put({ ...settings, engine_executables });
      expect(response.status, JSON.stringify(engine_executables)).toBe(400);
      expect(await errorCode(response)).toBe('invalid_executable');
    }
    expect(readSavedSettings(dataDir)).toEqual({});

    // the real program is accepted (espeak-ng is installed by .ci/run)
    const espeak = gateway.registry.summaries().find((engine) => engine.id === 'espeak-ng-system');
    expect(espeak?.available).toBe(true);
    const accepted = await put({ ...settings, engine_executables: { 'espeak-ng-system': '/usr/bin/espeak-ng' } });
    expect(accepted.status).toBe(200);
  });

  it('saves a models folder only when it is a private folder', async () => {
    const { put, update, dataDir } = await start();
    const settings = await update();
    const open = await privateDir(dataDir, 'shared', 0o777);
    await chmod(open, 0o777);
    const file = path.join(dataDir, 'file');
    await writeFile(file, '');
    for (const models_dir of ['voices', path.join(dataDir, 'missing'), file, open]) {
      const response = await put({ ...settings, models_dir });
      expect(response.status, models_dir).toBe(400);
      expect(await errorCode(response)).toBe('invalid_models_dir');
    }
    expect((await put({ ...settings, models_dir: '' })).status).toBe(200);
  });
});

describe('resolveSettings', () => {
  const resolve = (argv: string[], env: NodeJS.ProcessEnv, saved: SavedSettings) => {
    const config = configFromArgs(argv, env);
    return resolveSettings(fromConfig(config), config.givenBy ?? {}, saved);
  };

  it('takes a flag over a variable over a saved value over the default, naming each source', () => {
    const saved = { port: 5800, workers: 3 };
    const { settings, origins } = resolve(['--port', '5702'], { ORATOR_PORT: '5701' }, saved);
    expect(settings).toMatchObject({ port: 5702, workers: 3, inline_threshold: 1000 });
    expect(origins).toMatchObject({
      port: { source: 'flag', set_by: '--port' },
      workers: { source: 'saved' },
      inline_threshold: { source: 'default' },
    });
    expect(resolve([], { ORATOR_PORT: '5701' }, saved).origins.port).toEqual({ source: 'env', set_by: 'ORATOR_PORT' });
    expect(resolve([], {}, saved).origins.port).toEqual({ source: 'saved' });
  });

  it('lets a flag that repeats the default win over a saved value', () => {
    const { settings, origins } = resolve(['--port', '5700', '--retention-hours', '0'], {}, { port: 5800, retention_hours: 24 });
    expect(settings).toMatchObject({ port: 5700, retention_hours: 0 });
    expect(origins.retention_hours).toEqual({ source: 'flag', set_by: '--retention-hours' });
  });

  it('takes programs and the models folder from flags over saved ones', () => {
    const saved = { models_dir: '/srv/saved', engine_executables: { piper: '/srv/saved/piper' } };
    expect(resolve([], {}, saved).settings).toMatchObject(saved);
    const fromFlags = resolve(['--models-dir', '/opt/voices', '--engine-executable', 'piper=/opt/piper/piper'], {}, saved);
    expect(fromFlags.settings).toMatchObject({ models_dir: '/opt/voices', engine_executables: { piper: '/opt/piper/piper' } });
  });

  it('reads the bind address only where Orator is started, never from settings.json', () => {
    expect(resolve([], {}, { host: '0.0.0.0' }).settings.host).toBe('127.0.0.1');
    expect(resolve([], { ORATOR_HOST: '::1' }, { host: '0.0.0.0' }).settings.host).toBe('::1');
  });

  it('counts a start option set in code as its flag', () => {
    const { origins } = resolveSettings(fromConfig({ ...configFromArgs([], {}), inlineThreshold: 5 }), {}, { inline_threshold: 7 });
    expect(origins.inline_threshold).toEqual({ source: 'flag', set_by: '--inline-threshold' });
  });
});

describe('desktop origin (CORS)', () => {
  it('answers preflights from the desktop window only, before the key is checked', async () => {
    const { gateway } = unchanged;
    const preflight = (origin: string) =>
      fetch(`${gateway.url}${SETTINGS_PATH}`, {
        method: 'OPTIONS',
        headers: { origin, 'access-control-request-method': 'PUT', 'access-control-request-headers': 'authorization, content-type' },
      });
    const ok = await preflight(DESKTOP_ORIGIN);
    expect(ok.status).toBe(204);
    expect(ok.headers.get('access-control-allow-origin')).toBe(DESKTOP_ORIGIN);
    // every header the studio's client sends must be allowed, or the desktop window cannot call the API
    expect(ok.headers.get('access-control-allow-headers')!.split(', ')).toEqual(
      expect.arrayContaining(['authorization', 'content-type', 'range', 'last-event-id']),
    );
    // retention is the server's: no client header to claim being the studio
    expect(ok.headers.get('access-control-allow-headers')).not.toContain('x-orator-client');

    const evil = await preflight('https://evil.example');
    expect(evil.status).not.toBe(204);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets the desktop window read errors and audio headers', async () => {
    const { gateway } = unchanged;
    const wrongKey = await fetch(`${gateway.url}${SETTINGS_PATH}`, { headers: { origin: DESKTOP_ORIGIN, authorization: 'Bearer wrong' } });
    expect(wrongKey.status).toBe(401);
    expect(wrongKey.headers.get('access-control-allow-origin')).toBe(DESKTOP_ORIGIN);
    const audio = await fetch(`${gateway.url}/api/v1/tts/synthesize`, {
      method: 'POST',
      headers: { origin: DESKTOP_ORIGIN, authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'Hi.' }),
    });
    expect(audio.status).toBe(200);
    expect(audio.headers.get('access-control-expose-headers')).toContain('x-orator-duration');
  });

  it('lets the desktop window read event streams', async () => {
    const { gateway } = unchanged;
    const controller = new AbortController();
    const events = await fetch(`${gateway.url}/api/v1/tts/events`, {
      headers: { origin: DESKTOP_ORIGIN, authorization: `Bearer ${gateway.apiKey}` },
      signal: controller.signal,
    });
    expect(events.headers.get('content-type')).toMatch(/^text\/event-stream/);
    expect(events.headers.get('access-control-allow-origin')).toBe(DESKTOP_ORIGIN);
    controller.abort();
  });
});
