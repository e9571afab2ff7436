import { _electron as electron, type ElectronApplication } from '@playwright/test';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';

/**
 * The desktop app for the `electron` project: Playwright's _electron on the built main process,
 * preload and studio (`npm run build`). Its binary comes from GitHub, which some machines cannot
 * reach, and it needs a display; where either is missing the whole project is skipped, once, by
 * the config (playwright.config.ts) and the fixtures (fixtures.ts).
 */
export function whyElectronCannotRun(): string | null {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset; on Linux run under xvfb-run)';
  }
  try {
    const binary = createRequire(import.meta.url)('electron') as unknown;
    if (typeof binary === 'string' && existsSync(binary)) return null;
  } catch {
    // the package throws when its binary was never downloaded
  }
  return 'the Electron binary is not installed (node_modules/electron/dist is missing; `npm start` tries to fetch it)';
}

/** Starts the app with its gateway on a free port and its own data folder. */
export function launchDesktopApp(entry: string, dataDir: string): Promise<ElectronApplication> {
  return electron.launch({
    // Chromium refuses to run as root with its OS sandbox; the renderer's JS sandbox stays on.
    args: [...(process.getuid?.() === 0 ? ['--no-sandbox'] : []), entry],
    env: { ...process.env, ORATOR_DATA_DIR: dataDir, ORATOR_PORT: '0' },
  });
}
