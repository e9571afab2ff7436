/**
 * `npm start`: the desktop app where Electron can run; elsewhere (no binary, as on machines without
 * GitHub access, or no display) one line says so and the headless gateway starts in a child process,
 * printing the studio's URL with the #key fragment (as `npm run serve`). Arguments go to either.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { runAttached, runHeadlessGateway } from './launch';

const require = createRequire(import.meta.url);
const appDir = fileURLToPath(new URL('../..', import.meta.url));
const args = process.argv.slice(2);

/** In plain Node the electron package exports the binary's path, and throws when it was never fetched. */
function electronBinary(): string | null {
  try {
    const binary = require('electron') as unknown;
    return typeof binary === 'string' && existsSync(binary) ? binary : null;
  } catch {
    return null;
  }
}

/**
 * The package's own install script fetches the binary where the network allows (npm install was
 * run with its scripts off, see "allowScripts"). It honours ELECTRON_SKIP_BINARY_DOWNLOAD.
 */
function fetchElectron(): string | null {
  spawnSync(process.execPath, [require.resolve('electron/install.js')], { stdio: 'ignore', timeout: 10 * 60_000 });
  return electronBinary();
}

/** Why Electron cannot run here, or null when it can. */
function unavailable(): { reason: string } | { binary: string } {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return { reason: 'no display: neither DISPLAY nor WAYLAND_DISPLAY is set' };
  }
  const binary = electronBinary() ?? fetchElectron();
  return binary ? { binary } : { reason: 'its binary is not installed and could not be downloaded' };
}

const found = unavailable();
if ('binary' in found) {
  runAttached(found.binary, [appDir, ...args]);
} else {
  console.log(`Electron is unavailable (${found.reason}); starting the headless gateway with the web studio instead.`);
  // Built by `npm run build`, which npm start runs first.
  runHeadlessGateway(args);
}
