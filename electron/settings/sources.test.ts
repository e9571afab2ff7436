/**
 * Where each setting comes from, over HTTP with a real gateway started as `npm run serve` starts it
 * (configFromArgs over real flags and variables): defaults < settings.json < environment < flags.
 */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SETTINGS_PATH, type SettingsView } from '../contract';
import { configFromArgs } from '../gateway/config';
import { startGateway, type Gateway } from '../gateway/start';
import { WORKER_FILE } from '../testing/gateway';
import { readSavedSettings, writeSavedSettings } from './store';

const running: Gateway[] = [];
const dataDirs: string[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((gateway) => gateway.close()));
  await Promise.all(dataDirs.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
});

/** A gateway on `dataDir` as the command line starts it, and its settings routes. */
async function serve(dataDir: string, argv: string[], env: NodeJS.ProcessEnv) {
  const gateway = await startGateway(configFromArgs(['--data-dir', dataDir, ...argv], env), { workerFile: WORKER_FILE });
  running.push(gateway);
  const adminToken = (await readFile(gateway.adminTokenFile, 'utf8')).trim();
  const request = (key: string, init: RequestInit = {}) =>
    fetch(gateway.url + SETTINGS_PATH, { ...init, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' } });
  const view = async () => (await (await request(gateway.apiKey)).json()) as SettingsView;
  const put = async (change: Record<string, unknown>) => {
    const { host: _host, ...settings } = (await view()).settings;
    return request(adminToken, { method: 'PUT', body: JSON.stringify({ ...settings, ...change }) });
  };
  return { gateway, view, put };
}

async function savedDataDir(saved: Parameters<typeof writeSavedSettings>[1]): Promise<string> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-sources-'));
  dataDirs.push(dataDir);
  await writeSavedSettings(dataDir, saved);
  return dataDir;
}

describe('setting sources over HTTP', () => {
  it('answers each value with its source: the default, a saved value, and a variable over a saved value', async () => {
    const dataDir = await savedDataDir({ retention_hours: 24, port: 5799 });
    // the saved port would bind 5799; ORATOR_PORT=0 wins and the gateway takes a free port
    const { gateway, view, put } = await serve(dataDir, [], { ORATOR_PORT: '0' });
    expect(new URL(gateway.url).port).not.toBe('5799');
    const { settings, sources } = await view();
    expect(settings).toMatchObject({ retention_hours: 24, port: 0, max_text_length: 2_000_000 });
    expect(sources.max_text_length).toEqual({ source: 'default', editable: true });
    expect(sources.retention_hours).toEqual({ source: 'saved', editable: true });
    expect(sources.port).toEqual({ source: 'env', set_by: 'ORATOR_PORT', editable: false });
    expect(sources.host).toEqual({ source: 'default', editable: false });

    const refused = await put({ port: 5800 });
    expect(refused.status).toBe(409);
    expect(await refused.json()).toEqual({
      error: {
        code: 'setting_locked',
        message: 'Not saved: port is set by ORATOR_PORT for this run, so it cannot be changed here. Change it where Orator is started.',
      },
    });
    expect(readSavedSettings(dataDir)).toEqual({ retention_hours: 24, port: 5799 });

    // a saved value changed back to its default is a default again
    const reset = await put({ retention_hours: 0 });
    expect(reset.status).toBe(200);
    expect(((await reset.json()) as SettingsView).sources.retention_hours).toEqual({ source: 'default', editable: true });
  });

  it('takes a flag over its variable, and a flag that repeats the default over a saved value', async () => {
    const dataDir = await savedDataDir({ retention_hours: 24, port: 5799 });
    const { gateway, view, put } = await serve(dataDir, ['--port', '0', '--retention-hours', '0'], { ORATOR_PORT: '5798' });
    expect(['5798', '5799']).not.toContain(new URL(gateway.url).port);
    const { settings, sources, restart_required } = await view();
    expect(settings).toMatchObject({ port: 0, retention_hours: 0 });
    expect(sources.port).toEqual({ source: 'flag', set_by: '--port', editable: false });
    expect(sources.retention_hours).toEqual({ source: 'flag', set_by: '--retention-hours', editable: false });
    expect(restart_required).toEqual([]);

    const refused = await put({ retention_hours: 48, port: 1 });
    expect(refused.status).toBe(409);
    expect(((await refused.json()) as { error: { message: string } }).error.message).toBe(
      'Not saved: port is set by --port; retention_hours is set by --retention-hours for this run, so they cannot be changed here. Change them where Orator is started.',
    );

    // the rest still saves; the saved values the flags hide are kept for a start without them
    const saved = await put({ inline_threshold: 40 });
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as SettingsView).sources.inline_threshold).toEqual({ source: 'saved', editable: true });
    expect(readSavedSettings(dataDir)).toEqual({ retention_hours: 24, port: 5799, inline_threshold: 40 });
  });
});
