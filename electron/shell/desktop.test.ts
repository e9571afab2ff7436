/**
 * The desktop shell with a real gateway, database and engines, and a minimal double of the
 * `electron` module only: the Electron binary cannot be downloaded here (no GitHub access), so it
 * cannot run. testing/electron-double.ts says what the double does.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Job } from '../contract';
import { configFromArgs } from '../gateway/config';
import { defaultDataDir } from '../storage/data-dir';
import { startGateway } from '../gateway/start';
import { IPC } from './bridge';
import { runDesktop } from './desktop';
import { createElectronDouble, PreventableEvent } from './testing/electron-double';
import { useDesktopLaunch } from './testing/launch';

const { launch, launchShared, STUDIO, DIST, onCleanup } = useDesktopLaunch();

describe('studio window', () => {
  it("is created with Electron's security flags and loads the built studio from app://", async () => {
    const { window, calls, userData, desktop } = await launchShared();
    const prefs = window.options.webPreferences!;
    expect(prefs).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false, webSecurity: true, webviewTag: false });
    expect(prefs.allowRunningInsecureContent).toBe(false);
    expect(prefs.preload).toBe(path.join(DIST, 'preload.cjs'));
    expect(existsSync(prefs.preload!)).toBe(true);
    expect(window.loadedUrl).toBe(STUDIO);
    expect(calls.schemes).toEqual([
      expect.objectContaining({ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }),
    ]);
    // The gateway runs in-process on Electron's userData.
    expect(existsSync(path.join(userData, 'orator.db'))).toBe(true);
    expect(desktop.gateway.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  });

  it('serves the studio with a strict CSP whose connect-src is the gateway alone', async () => {
    const { protocolHandlers, desktop } = await launchShared();
    const handler = protocolHandlers.get('app')!;
    const page = await handler(new Request(STUDIO));
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy')!;
    const directives = Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0], d.split(' ').slice(1).join(' ')]));
    expect(directives['default-src']).toBe("'none'");
    expect(directives['script-src']).toBe("'self'");
    expect(directives['connect-src']).toBe(desktop.gateway.url);
    // The player streams job audio straight from the gateway; inline results play from blobs.
    expect(directives['media-src']).toBe(`${desktop.gateway.url} blob:`);
    expect(csp).not.toContain('unsafe-eval');
    expect((await handler(new Request('app://orator/%2e%2e/%2e%2e/package.json'))).status).toBe(404);
    expect((await handler(new Request('app://elsewhere/index.html'))).status).toBe(404);
  });

  it('blocks navigation away from the studio, new windows, webviews and every permission', async () => {
    const { window, permissions } = await launchShared();
    const navigate = (url: string) => {
      const event = new PreventableEvent(url);
      window.webContents.emit('will-navigate', event, url);
      return event.defaultPrevented;
    };
    expect(navigate('https://example.com/')).toBe(true);
    expect(navigate('file:///etc/passwd')).toBe(true);
    expect(navigate(STUDIO)).toBe(false);
    const frame = new PreventableEvent('https://example.com/');
    window.webContents.emit('will-frame-navigate', frame);
    expect(frame.defaultPrevented).toBe(true);
    expect(window.webContents.windowOpenHandler!({ url: 'https://example.com/' })).toEqual({ action: 'deny' });
    const webview = new PreventableEvent();
    window.webContents.emit('will-attach-webview', webview);
    expect(webview.defaultPrevented).toBe(true);

    const answers: boolean[] = [];
    for (const permission of ['media', 'notifications', 'clipboard-sanitized-write', 'geolocation']) {
      permissions.request!({}, permission, (ok) => answers.push(ok));
    }
    expect(answers).toEqual([false, false, false, false]);
    expect(permissions.check!()).toBe(false);
  });

  it('hides to the tray on close by default, and closes when the settings say so', async () => {
    const { window, invoke, desktop, calls } = await launch();
    window.show();
    const close = () => {
      const event = new PreventableEvent();
      window.emit('close', event);
      return event.defaultPrevented;
    };
    expect(close()).toBe(true);
    expect(window.visible).toBe(false);
    const { host: _host, ...settings } = desktop.gateway.settings.current();
    calls.answers.push('Save');
    await invoke(IPC.saveSettings, { url: STUDIO }, { ...settings, close_to_tray: false });
    expect(close()).toBe(false);
  });
});

describe('streaming job audio', () => {
  it("adds the live key to the studio's requests for job audio on the gateway, and to nothing else", async () => {
    const { desktop, api, webRequest, beforeSendHeaders } = await launch();
    const origin = desktop.gateway.url;
    expect(webRequest.filter).toEqual({ urls: [`${origin}/api/v1/tts/jobs/*/audio`] });

    const accepted = await api('/api/v1/tts/synthesize', {
      method: 'POST',
      body: JSON.stringify({ text: 'A short job to stream.', mode: 'job' }),
    });
    const { job_id } = (await accepted.json()) as { job_id: string };
    await expect
      .poll(async () => ((await (await api(`/api/v1/tts/jobs/${job_id}`)).json()) as Job).status, { timeout: 30_000 })
      .toBe('done');
    const audio = `${origin}/api/v1/tts/jobs/${job_id}/audio`;

    // What the <audio> element sends: a Range request without the key; it leaves with it.
    const headers = await beforeSendHeaders({ url: audio, pageUrl: STUDIO, requestHeaders: { Range: 'bytes=0-99' } });
    expect(headers).toEqual({ Range: 'bytes=0-99', Authorization: `Bearer ${desktop.gateway.apiKey}` });
    const partial = await fetch(audio, { headers });
    expect(partial.status).toBe(206);
    expect((await partial.arrayBuffer()).byteLength).toBe(100);
    expect((await fetch(audio, { headers: { Range: 'bytes=0-99' } })).status).toBe(401); // the key is what made it work

    const keyOf = async (details: Parameters<typeof beforeSendHeaders>[0]) => (await beforeSendHeaders(details)).Authorization;
    // Other origins, including the same gateway under another name, never get the key.
    for (const url of [
      `http://127.0.0.1:1/api/v1/tts/jobs/${job_id}/audio`,
      audio.replace('127.0.0.1', 'localhost'),
      `https://example.com/api/v1/tts/jobs/${job_id}/audio`,
      audio.replace('http://', 'http://user:pass@'),
    ]) {
      expect(await keyOf({ url, pageUrl: STUDIO }), url).toBeUndefined();
    }
    // Other routes of the gateway: the studio's fetches carry the key themselves.
    for (const route of [
      '/api/v1/tts/jobs',
      `/api/v1/tts/jobs/${job_id}`,
      `/api/v1/tts/jobs/${job_id}/peaks`,
      `/api/v1/tts/jobs/${job_id}/audio/x`,
      '/api/v1/tts/settings/api-key',
    ]) {
      expect(await keyOf({ url: origin + route, pageUrl: STUDIO }), route).toBeUndefined();
    }
    expect(await keyOf({ url: audio, method: 'POST', pageUrl: STUDIO })).toBeUndefined();
    expect(await keyOf({ url: audio, pageUrl: 'https://evil.example/' })).toBeUndefined();

    // A regenerated key applies at once, replacing whatever key the request had.
    const api_key = await desktop.gateway.settings.regenerateApiKey();
    const renewed = await beforeSendHeaders({
      url: audio,
      pageUrl: STUDIO,
      requestHeaders: { authorization: 'Bearer stale', Range: 'bytes=0-9' },
    });
    expect(renewed).toEqual({ Range: 'bytes=0-9', Authorization: `Bearer ${api_key}` });
    expect((await fetch(audio, { headers: renewed })).status).toBe(206);
  });
});

describe('tray', () => {
  it("shows the gateway's instance id, the fingerprint whoami answers, in its tooltip", async () => {
    const { tray, desktop } = await launchShared();
    const whoami = (await (await fetch(`${desktop.gateway.url}/api/v1/tts/whoami`)).json()) as { instance: string };
    expect(whoami.instance).toMatch(/^[A-Za-z0-9_-]{12}$/);
    expect(tray.toolTip).toBe(`Orator: text-to-speech gateway · instance ${whoami.instance}`);
  });

  it('copies the API URL and key, toggles the studio, and pauses and resumes the queue', async () => {
    const { tray, calls, desktop, window } = await launchShared();
    tray.click('copy-url');
    tray.click('copy-key');
    expect(calls.clipboard).toEqual([desktop.gateway.url, desktop.gateway.apiKey]);

    tray.click('toggle-window');
    expect(window.visible).toBe(true);
    expect(tray.menu.find((i) => i.id === 'toggle-window')!.label).toBe('Hide Studio');
    tray.click('toggle-window');
    expect(window.visible).toBe(false);

    tray.click('pause-queue');
    expect(desktop.gateway.queuePaused).toBe(true);
    expect(tray.menu.some((i) => i.id === 'resume-queue')).toBe(true);
    tray.click('resume-queue');
    expect(desktop.gateway.queuePaused).toBe(false);
  });

  it('holds queued work while paused', async () => {
    const { tray, api } = await launchShared();
    tray.click('pause-queue');
    const accepted = await api('/api/v1/tts/synthesize', {
      method: 'POST',
      body: JSON.stringify({ text: 'Held back while paused.', mode: 'job' }),
    });
    const { job_id } = (await accepted.json()) as { job_id: string };
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const job = (await (await api(`/api/v1/tts/jobs/${job_id}`)).json()) as Job;
    expect(job).toMatchObject({ status: 'running', progress: { done: 0 } });
    tray.click('resume-queue');
    await expect
      .poll(async () => ((await (await api(`/api/v1/tts/jobs/${job_id}`)).json()) as Job).status, { timeout: 30_000 })
      .toBe('done');
  });
});

describe('quit', () => {
  it('stops the gateway, keeps finished chunks of a running job, closes the database, then quits', async () => {
    const { tray, api, desktop, userData, calls } = await launch();
    const text = Array.from({ length: 400 }, (_, i) => `Sentence number ${i} of a long chapter, read aloud.`).join(' ');
    const accepted = await api('/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text }) });
    const { job_id } = (await accepted.json()) as { job_id: string };
    await expect
      .poll(async () => ((await (await api(`/api/v1/tts/jobs/${job_id}`)).json()) as Job).progress.done, { timeout: 30_000 })
      .toBeGreaterThan(0);

    // The studio keeps an event stream open; it must not hold the quit.
    const events = await api('/api/v1/tts/events', { headers: { accept: 'text/event-stream' } });
    expect(events.status).toBe(200);

    tray.click('quit');
    expect(calls.quit).toBe(1); // held: the gateway is shutting down
    await desktop.quitDone;
    expect(calls.quit).toBe(2); // and then quit for real
    expect(tray.destroyed).toBe(true);
    await expect(fetch(desktop.gateway.url)).rejects.toThrow();
    // SQLite removes the WAL file when the last connection closes cleanly.
    expect(existsSync(path.join(userData, 'orator.db-wal'))).toBe(false);

    // The job was not lost: the next start picks it up where it stopped.
    const again = await startGateway(
      { ...configFromArgs([], {}), port: 0, dataDir: userData },
      { workerFile: path.join(DIST, 'synth-worker.mjs') },
    );
    try {
      const job = (await (
        await fetch(`${again.url}/api/v1/tts/jobs/${job_id}`, { headers: { authorization: `Bearer ${again.apiKey}` } })
      ).json()) as Job;
      expect(job.status).not.toBe('failed');
      expect(job.progress.done).toBeGreaterThan(0);
    } finally {
      await again.close();
    }
  });
});

describe('start-up failure', () => {
  it('says why in a dialog and exits, with no window', async () => {
    const userData = await mkdtemp(path.join(os.tmpdir(), 'orator-desktop-'));
    onCleanup(() => rm(userData, { recursive: true, force: true }));
    const double = createElectronDouble();
    const env = { ORATOR_DATA_DIR: userData, ORATOR_PORT: 'not-a-port' };
    expect(await runDesktop(double.electron, { distDir: DIST, iconDir: 'resources/icons', env })).toBeNull();
    expect(double.calls.errorBoxes).toEqual([expect.stringContaining('ORATOR_PORT must be an integer')]);
    expect(double.calls.exit).toEqual([1]);
    expect(double.windows).toHaveLength(0);
  });
});

describe('single instance', () => {
  it('a second instance quits at once and starts no gateway; userData is the folder `npm run serve` uses', async () => {
    const double = createElectronDouble({ lock: false });
    expect(await runDesktop(double.electron, { distDir: DIST, iconDir: 'resources/icons', env: {} })).toBeNull();
    expect(double.calls.quit).toBe(1);
    expect(double.windows).toHaveLength(0);
    expect(double.app.getPath('userData')).toBe(defaultDataDir());
  });
});
