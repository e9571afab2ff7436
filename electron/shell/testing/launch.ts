/** Test support: the desktop shell on the Electron double (see electron-double.ts), with a real gateway. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach } from 'vitest';
import { runDesktop, type Desktop } from '../desktop';
import { createElectronDouble } from './electron-double';

const DIST = path.resolve('dist');

type Cleanups = (() => Promise<void>)[];

async function runCleanups(cleanups: Cleanups): Promise<void> {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
}

/**
 * Launches per test, each torn down (gateway closed, data folder removed) after it; and one launch
 * shared by the tests that only look at it, torn down after the file (a launch starts a gateway,
 * whose engine probes are seconds of CPU).
 */
export function useDesktopLaunch() {
  const cleanups: Cleanups = [];
  const sharedCleanups: Cleanups = [];
  afterEach(() => runCleanups(cleanups));
  afterAll(() => runCleanups(sharedCleanups));

  async function launch(options: { lock?: boolean; env?: NodeJS.ProcessEnv } = {}, owner: Cleanups = cleanups) {
    const userData = await mkdtemp(path.join(os.tmpdir(), 'orator-desktop-'));
    const double = createElectronDouble(options);
    const env: NodeJS.ProcessEnv = { ORATOR_PORT: '0', ORATOR_DATA_DIR: userData, ...options.env };
    const desktop = await runDesktop(double.electron, { distDir: DIST, iconDir: path.resolve('resources/icons'), env });
    owner.push(async () => {
      await desktop?.gateway.close().catch(() => {}); // already closed when the test quit
      await rm(userData, { recursive: true, force: true });
    });
    const api = (route: string, init: RequestInit = {}) =>
      fetch(desktop!.gateway.url + route, {
        ...init,
        headers: { authorization: `Bearer ${desktop!.gateway.apiKey}`, 'content-type': 'application/json', ...init.headers },
      });
    return { ...double, desktop: desktop as Desktop, userData, env, api, window: double.windows[0]!, tray: double.trays[0]! };
  }

  let shared: ReturnType<typeof launch> | undefined;
  return {
    launch,
    /** The shared launch, made at the first call: for tests that change nothing, or put back what they change. */
    launchShared: () => (shared ??= launch({}, sharedCleanups)),
    /** The studio page's URL, as the trusted sender of IPC. */
    STUDIO: 'app://orator/index.html',
    DIST,
    /** Runs after the test, with the launches' teardown. */
    onCleanup: (cleanup: () => Promise<void>) => cleanups.push(cleanup),
  };
}
