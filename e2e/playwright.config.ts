import { defineConfig, devices } from '@playwright/test';
import { whyElectronCannotRun } from './desktop-app';
import type { StudioOptions } from './fixtures';

/**
 * End-to-end tests of the studio, built by `npm run build`, in two projects:
 * - `web`: Debian's Chromium against the real headless gateway (dist/serve.mjs); every spec.
 * - `electron`: the desktop app itself (Playwright's _electron), for the specs that hold for both
 *   (studio.spec.ts) and the desktop-only checks (electron.spec.ts).
 * The `studio` fixture (fixtures.ts) yields the connected studio page in either.
 */
const electronProblem = whyElectronCannotRun();
// Printed once, by the runner (workers load this file too); the list reporter shows no skip reasons.
if (electronProblem && process.env.TEST_WORKER_INDEX === undefined) {
  console.log(`Skipping the "electron" project: Electron cannot run here: ${electronProblem}.`);
}

export default defineConfig<StudioOptions>({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: '../test-results',
  // One spec file at a time: two (each worker has its own gateway and data dir, fixtures.ts) were
  // not shown faster, and under load two gateways starting at once overran the fixture (README).
  workers: 1,
  fullyParallel: false,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    // Debian's Chromium, for the web studio (and the unused `page` of the electron project).
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
        '--disable-sync',
      ],
    },
  },
  projects: [
    {
      name: 'web',
      testIgnore: 'electron.spec.ts',
      use: {
        studioApp: 'web',
        ...devices['Desktop Chrome'],
        viewport: { width: 1024, height: 700 },
        deviceScaleFactor: 1,
      },
    },
    {
      name: 'electron',
      testMatch: ['studio.spec.ts', 'electron.spec.ts'],
      use: { studioApp: 'electron', electronUnavailable: electronProblem },
    },
  ],
});
