import { mkdtemp, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { API_KEY_PATH, SETTINGS_PATH, type Settings, type SettingsView } from '../contract';
import { configFromArgs, type GatewayConfig } from '../gateway/config';
import { DESKTOP_ORIGIN } from '../gateway/plugins/desktop-origin';
import { startGateway, type Gateway } from '../gateway/start';
import { withSavedSettings } from './service';
import { readSavedSettings, settingsFile } from './store';

const WORKER_FILE = path.resolve('dist/synth-worker.mjs');
const open: { gateway: Gateway; dataDir: string }[] = [];

async function start(overrides: Partial<GatewayConfig> = {}, dataDir?: string) {
  const dir = dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'orator-settings-')));
  const gateway = await startGateway({ ...configFromArgs([], {}), port: 0, dataDir: dir, ...overrides }, { workerFile: WORKER_FILE });
  open.push({ gateway, dataDir: dir });
  const api = (route: string, init: RequestInit = {}, key = gateway.apiKey) =>
    fetch(gateway.url + route, {
      ...init,
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...init.headers },
    });
  return { gateway, dataDir: dir, api };
}

afterEach(async () => {
  for (const { gateway, dataDir } of open.splice(0)) {
    await gateway.close();
    await rm(dataDir, { recursive: true, force: true });
  }
});

describe('settings API', () => {
  it('shows the running settings, saves only changes (0600) and applies the inline threshold at once', async () => {
    const { api, dataDir } = await start();
    const before = (await (await api(SETTINGS_PATH)).json()) as SettingsView;
    expect(before.restart_required).toEqual([]);
    expect(before.api_key_locked).toBe(false);
    expect(before.settings).toMatchObject({ host: '127.0.0.1', port: 0, inline_threshold: 1000, close_to_tray: true });

    const next: Settings = { ...before.settings, inline_threshold: 5, retention_hours: 24, port: 5799, models_dir: '/srv/voices' };
    const put = await api(SETTINGS_PATH, { method: 'PUT', body: JSON.stringify(next) });
    expect(put.status).toBe(200);
    const after = (await put.json()) as SettingsView;
    expect(after.settings).toMatchObject({ inline_threshold: 5, retention_hours: 24 });
    expect(after.restart_required.sort()).toEqual(['models_dir', 'port']);

    // Only what differs from the defaults is written, so later default changes still reach this user.
    expect(readSavedSettings(dataDir)).toEqual({ inline_threshold: 5, retention_hours: 24, port: 5799, models_dir: '/srv/voices' });
    expect((await stat(settingsFile(dataDir))).mode & 0o777).toBe(0o600);

    const synth = await api('/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text: 'Longer than five.' }) });
    expect(synth.status).toBe(202);
  });

  it('rejects unknown fields and out-of-range values with invalid_request', async () => {
    const { api } = await start();
    const { settings } = (await (await api(SETTINGS_PATH)).json()) as SettingsView;
    for (const body of [{ ...settings, port: 70000 }, { ...settings, colour: 'red' }, { ...settings, host: 'not a host' }, { port: 1 }]) {
      const response = await api(SETTINGS_PATH, { method: 'PUT', body: JSON.stringify(body) });
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe('invalid_request');
    }
  });

  it('regenerates the key: the old one fails at once, the new one is stored', async () => {
    const { gateway, api } = await start();
    const oldKey = gateway.apiKey;
    const response = await api(API_KEY_PATH, { method: 'POST', body: '{}' });
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
    const { api } = await start({ apiKey: 'fixed-key-for-this-run' });
    expect(((await (await api(SETTINGS_PATH)).json()) as SettingsView).api_key_locked).toBe(true);
    const response = await api(API_KEY_PATH, { method: 'POST', body: '{}' });
    expect(response.status).toBe(400);
  });

  it('applies saved settings at the next start on the same data dir', async () => {
    const first = await start();
    const { settings } = (await (await first.api(SETTINGS_PATH)).json()) as SettingsView;
    await first.api(SETTINGS_PATH, { method: 'PUT', body: JSON.stringify({ ...settings, max_text_length: 50, workers: 1 }) });
    // one gateway per data dir: the first one stops before the next start
    await first.gateway.close();
    open.splice(
      open.findIndex((o) => o.gateway === first.gateway),
      1,
    );
    const second = await start({ port: 0 }, first.dataDir);
    const view = (await (await second.api(SETTINGS_PATH)).json()) as SettingsView;
    expect(view.settings).toMatchObject({ max_text_length: 50, workers: 1 });
    expect(view.restart_required).toEqual([]);
    const tooLong = await second.api('/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text: 'x'.repeat(51) }) });
    expect(tooLong.status).toBe(413);
  });
});

describe('withSavedSettings', () => {
  const defaults = configFromArgs([], {});
  it('fills in values left at their default, but a flag or env var wins', () => {
    expect(withSavedSettings(defaults, { port: 5800, host: '::1' }, defaults)).toMatchObject({ port: 5800, host: '::1' });
    const fromFlags = configFromArgs(['--port', '0'], { ORATOR_HOST: 'localhost' });
    expect(withSavedSettings(fromFlags, { port: 5800, host: '::1' }, defaults)).toMatchObject({ port: 0, host: 'localhost' });
  });
});

describe('desktop origin (CORS)', () => {
  it('answers preflights from the desktop window only, before the key is checked', async () => {
    const { gateway } = await start();
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
      expect.arrayContaining(['authorization', 'content-type', 'range', 'x-orator-client']),
    );

    const evil = await preflight('https://evil.example');
    expect(evil.status).not.toBe(204);
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets the desktop window read errors and audio headers', async () => {
    const { gateway } = await start();
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
    const { gateway } = await start();
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
