import { _electron as electron, expect, test } from '@playwright/test';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The desktop app itself, launched with Playwright's _electron: the built main process, preload
 * and studio (npm run build). Where Electron cannot run (its binary is fetched from GitHub, which
 * some machines cannot reach; or there is no display) the test is skipped and says why; the
 * same studio is covered headless by the other specs.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ARTIFACTS = path.join(ROOT, 'e2e', 'artifacts');

function whyElectronCannotRun(): string | null {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset; try xvfb-run)';
  }
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    if (typeof binary === 'string' && existsSync(binary)) return null;
  } catch {
    // the package throws when its binary was never downloaded
  }
  return 'the Electron binary is not installed (node_modules/electron/dist is missing: `npm start` tries to fetch it)';
}

const reason = whyElectronCannotRun();
// The list reporter does not show skip reasons; this line does.
if (reason) console.log(`Skipping the desktop app test: Electron cannot run here: ${reason}.`);

test.describe('desktop app (Electron)', () => {
  test.skip(reason !== null, `Electron cannot run here: ${reason}. The desktop app is not tested in this run.`);

  let dataDir: string;
  test.beforeEach(async () => {
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-electron-'));
  });
  test.afterEach(async () => {
    await rm(dataDir, { recursive: true, force: true });
  });

  test('opens the studio in a locked-down window, connected through the preload bridge', async () => {
    const app = await electron.launch({
      // Chromium refuses to run as root with its OS sandbox; the renderer's JS sandbox stays on.
      args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), ROOT],
      env: { ...process.env, ORATOR_DATA_DIR: dataDir, ORATOR_PORT: '0' },
    });
    try {
      const page = await app.firstWindow();
      await expect(page).toHaveURL('app://orator/index.html');

      const seen = await page.evaluate(() => {
        const w = window as unknown as { orator?: Record<string, unknown>; require?: unknown; process?: unknown };
        return { bridge: Object.keys(w.orator ?? {}).sort(), gatewayUrl: w.orator?.gatewayUrl, require: typeof w.require, process: typeof w.process };
      });
      expect(seen.bridge).toEqual(['apiKey', 'appVersion', 'copyToClipboard', 'gatewayUrl', 'openDataFolder']);
      expect(seen.gatewayUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(seen.require).toBe('undefined');
      expect(seen.process).toBe('undefined');

      // Connected with the bridge's key: the studio, not the key prompt.
      await expect(page.getByRole('tab', { name: 'Studio' })).toBeVisible();

      // The CSP allows the gateway only; new windows are denied; the page has no Node.
      expect(await page.evaluate(() => fetch('https://example.com/').then(() => 'reached', () => 'blocked'))).toBe('blocked');
      expect(await page.evaluate(() => window.open('https://example.com/') === null)).toBe(true);

      await page.getByRole('button', { name: 'Settings' }).click();
      await expect(page.getByRole('button', { name: 'Open data folder' })).toBeVisible();
      await page.screenshot({ path: path.join(ARTIFACTS, 'electron-studio.png') });
    } finally {
      await app.close();
    }
  });
});
