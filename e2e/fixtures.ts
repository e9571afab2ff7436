import { test as base, expect, type ElectronApplication, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gatewayEnv, gatewayNodeArgs } from '../electron/gateway-process';
import { ADMIN_TOKEN_FILE } from '../electron/storage/credentials';
import { launchDesktopApp } from './desktop-app';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// ORATOR_E2E_DIST: a private copy of dist/ (useful when others rebuild dist/ in a shared tree).
const DIST = process.env.ORATOR_E2E_DIST ? path.resolve(process.env.ORATOR_E2E_DIST) : path.join(ROOT, 'dist');
const SERVE = path.join(DIST, 'serve.mjs');
export const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');

export interface Gateway {
  url: string;
  apiKey: string;
  /** The link `npm run serve` prints on a terminal at first start: the studio with the key in the fragment. */
  studioUrl: string;
  dataDir: string;
  /** From the data dir's admin-token file: what a person pastes into the studio to change settings or voices. */
  adminToken: string;
}

/**
 * Starts `node dist/serve.mjs --port 0` on a temp data dir and reads the line it prints. Its
 * output is a pipe, not a terminal, so the line names the key's file instead of showing the key.
 */
async function startGateway(workerIndex: number): Promise<{ gateway: Gateway; stop: () => Promise<void> }> {
  if (!existsSync(SERVE) || !existsSync(path.join(DIST, 'renderer', 'index.html'))) {
    throw new Error(`${DIST} holds no built gateway and studio: run \`npm run build\` first.`);
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-e2e-'));
  const child = spawn(process.execPath, gatewayNodeArgs(SERVE, ['--port', '0', '--data-dir', dataDir]), {
    cwd: ROOT,
    env: gatewayEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  // The gateway's output, for diagnosing a failed run.
  await mkdir(ARTIFACTS, { recursive: true });
  const log = createWriteStream(path.join(ARTIFACTS, `gateway-${workerIndex}.log`));
  child.stdout!.pipe(log);
  child.stderr!.pipe(log);
  child.once('exit', (code, signal) => log.write(`\n[gateway exited: ${code ?? signal}]\n`));
  const line = await new Promise<string>((resolve, reject) => {
    let stdout = '';
    const timer = setTimeout(() => reject(new Error(`The gateway did not start in time.\n${stdout}${stderr}`)), 30_000);
    child.stdout!.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      const found = stdout.split('\n').find((l) => l.startsWith('Orator gateway at ') && l.includes(' · API key in '));
      if (found) {
        clearTimeout(timer);
        resolve(found);
      }
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`The gateway exited with ${code}.\n${stdout}${stderr}`));
    });
  });
  const match = /^Orator gateway at (http:\/\/\S+?)\/ .* API key in (\S+) · admin token in \S+$/.exec(line);
  if (!match) throw new Error(`Unexpected gateway line: ${line}`);
  const [, url, keyFile] = match as unknown as [string, string, string];
  const apiKey = (await readFile(keyFile, 'utf8')).trim();
  return {
    gateway: { url, apiKey, studioUrl: `${url}/#key=${apiKey}`, dataDir, adminToken: await adminTokenOf(dataDir) },
    stop: async () => {
      await stopProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

const adminTokenOf = async (dataDir: string) => (await readFile(path.join(dataDir, ADMIN_TOKEN_FILE), 'utf8')).trim();

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/** Set per project in playwright.config.ts. */
export interface StudioOptions {
  /** Which studio the tests drive: the web studio in Chromium, or the desktop app. */
  studioApp: 'web' | 'electron';
  /** Why the desktop app cannot run on this machine; null where it can. */
  electronUnavailable: string | null;
}

interface TestFixtures {
  /** The studio open and connected: in Chromium with the key from the link, or the desktop app's window. */
  studio: Page;
  /** Call at the end of a test: saves e2e/artifacts/<name>.png (electron-<name>.png for the desktop app). */
  snap: (name: string) => Promise<void>;
  /** The page a test works in, for snap(): the studio, or Chromium's page in web-only tests. */
  shown: { page?: Page };
  /** The one place where the electron project is skipped, with its reason. */
  runnable: void;
}

interface WorkerFixtures extends StudioOptions {
  gateway: Gateway;
  /** The desktop app (electron project); null in the web project. */
  desktop: { app: ElectronApplication; window: Page; dataDir: string } | null;
}

// The app to launch: the repository (package.json's main is dist/main.mjs), or a private dist/.
const DESKTOP_ENTRY = process.env.ORATOR_E2E_DIST ? path.join(DIST, 'main.mjs') : ROOT;

export const test = base.extend<TestFixtures, WorkerFixtures>({
  studioApp: ['web', { scope: 'worker', option: true }],
  electronUnavailable: [null, { scope: 'worker', option: true }],

  runnable: [
    async ({ studioApp, electronUnavailable }, use, testInfo) => {
      testInfo.skip(studioApp === 'electron' && electronUnavailable !== null, `Electron cannot run here: ${electronUnavailable}.`);
      await use();
    },
    { auto: true },
  ],

  desktop: [
    async ({ studioApp }, use, workerInfo) => {
      if (studioApp !== 'electron') return use(null);
      const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-electron-'));
      const app = await launchDesktopApp(DESKTOP_ENTRY, dataDir);
      // The main process's output (the gateway's line, errors), for diagnosing a failed run.
      await mkdir(ARTIFACTS, { recursive: true });
      const log = createWriteStream(path.join(ARTIFACTS, `electron-${workerInfo.workerIndex}.log`));
      app.process().stdout?.pipe(log);
      app.process().stderr?.pipe(log);
      try {
        await use({ app, window: await app.firstWindow(), dataDir });
      } finally {
        await app.close();
        await rm(dataDir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  gateway: [
    async ({ desktop }, use, workerInfo) => {
      if (desktop) {
        // The app's own gateway, found the way the studio finds it: through the preload bridge.
        const { url, apiKey } = await desktop.window.evaluate(() => {
          const bridge = (window as unknown as { orator: { gatewayUrl: string; apiKey: string } }).orator;
          return { url: bridge.gatewayUrl, apiKey: bridge.apiKey };
        });
        const adminToken = await adminTokenOf(desktop.dataDir);
        return use({ url, apiKey, studioUrl: `${url}/#key=${apiKey}`, dataDir: desktop.dataDir, adminToken });
      }
      const { gateway, stop } = await startGateway(workerInfo.workerIndex);
      await use(gateway);
      await stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  // eslint-disable-next-line no-empty-pattern
  shown: async ({}, use) => {
    await use({});
  },

  page: async ({ page, shown }, use) => {
    shown.page = page;
    await use(page);
  },

  // Playwright resolves fixtures from the parameter list, so `page` is set up in both projects;
  // in the electron project it stays an unused blank tab and the studio is the app's window.
  studio: async ({ desktop, gateway, page, shown }, use) => {
    if (desktop) {
      page = desktop.window;
      // A fresh studio for each test, as a new browser context is in the web project: no draft,
      // favourites or player from the test before. The jobs on the gateway stay, as there.
      await page.evaluate(() => {
        localStorage.clear();
        sessionStorage.clear();
      });
      await page.reload();
    } else {
      await page.goto(gateway.studioUrl);
    }
    shown.page = page;
    await expect(page.getByRole('tab', { name: 'Studio' })).toBeVisible();
    await use(page);
  },

  snap: async ({ studioApp, shown }, use) => {
    await use(async (name: string) => {
      if (!shown.page) throw new Error('snap(): this test opened no page');
      const file = studioApp === 'web' ? name : `${studioApp}-${name}`;
      await shown.page.screenshot({ path: path.join(ARTIFACTS, `${file}.png`) });
    });
  },
});

export { expect };

/** Calls the gateway's API directly (to set up or check state the UI should reflect). */
export async function api(gateway: Gateway, pathname: string, init: RequestInit = {}): Promise<Response> {
  const headers: Record<string, string> = { authorization: `Bearer ${gateway.apiKey}`, ...(init.headers as Record<string, string>) };
  // Only with a body: the gateway refuses a JSON content type with nothing to parse.
  if (init.body !== undefined) headers['content-type'] ??= 'application/json';
  return fetch(`${gateway.url}${pathname}`, { ...init, headers });
}

/** A finished job made over the API, as a script would; returns its id. */
export async function finishedJob(gateway: Gateway, text: string): Promise<string> {
  const response = await api(gateway, '/api/v1/tts/synthesize', { method: 'POST', body: JSON.stringify({ text, mode: 'job' }) });
  expect(response.status).toBe(202);
  const { job_id } = (await response.json()) as { job_id: string };
  await expect
    .poll(async () => ((await (await api(gateway, `/api/v1/tts/jobs/${job_id}`)).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe('done');
  return job_id;
}
