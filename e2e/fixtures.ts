import { test as base, expect, type Page } from '@playwright/test';
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// ORATOR_E2E_DIST: a private copy of dist/ (useful when others rebuild dist/ in a shared tree).
const DIST = process.env.ORATOR_E2E_DIST ? path.resolve(process.env.ORATOR_E2E_DIST) : path.join(ROOT, 'dist');
const SERVE = path.join(DIST, 'serve.mjs');
export const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');

export interface Gateway {
  url: string;
  apiKey: string;
  /** The link `npm run serve` prints: the studio with the key in the fragment. */
  studioUrl: string;
  dataDir: string;
}

/** Starts `node dist/serve.mjs --port 0` on a temp data dir and reads the line it prints. */
async function startGateway(workerIndex: number): Promise<{ gateway: Gateway; stop: () => Promise<void> }> {
  if (!existsSync(SERVE) || !existsSync(path.join(DIST, 'renderer', 'index.html'))) {
    throw new Error(`${DIST} holds no built gateway and studio: run \`npm run build\` first.`);
  }
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-e2e-'));
  const child = spawn(process.execPath, [SERVE, '--port', '0', '--data-dir', dataDir], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
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
      const found = stdout.split('\n').find((l) => l.includes('#key='));
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
  const match = /studio: (http:\/\/\S+?)\/#key=(\S+)/.exec(line);
  if (!match) throw new Error(`Unexpected gateway line: ${line}`);
  const [, url, apiKey] = match as unknown as [string, string, string];
  return {
    gateway: { url, apiKey, studioUrl: `${url}/#key=${apiKey}`, dataDir },
    stop: async () => {
      await stopProcess(child);
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

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

interface Fixtures {
  /** A page with the studio open and connected (key taken from the fragment). */
  studio: Page;
  /** Call at the end of a test: saves e2e/artifacts/<name>.png. */
  snap: (name: string) => Promise<void>;
}

export const test = base.extend<Fixtures, { gateway: Gateway }>({
  gateway: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use, workerInfo) => {
      const { gateway, stop } = await startGateway(workerInfo.workerIndex);
      await use(gateway);
      await stop();
    },
    { scope: 'worker', timeout: 60_000 },
  ],

  studio: async ({ page, gateway }, use) => {
    await page.goto(gateway.studioUrl);
    await expect(page.getByRole('tab', { name: 'Studio' })).toBeVisible();
    await use(page);
  },

  snap: async ({ page }, use) => {
    await use(async (name: string) => {
      await page.screenshot({ path: path.join(ARTIFACTS, `${name}.png`) });
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
