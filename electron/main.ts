/**
 * The desktop app's main process. Thin on purpose: everything lives in ./shell, which takes the
 * `electron` module as an argument so that it can be tested in plain Node.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import electron from 'electron';
import { runDesktop } from './shell/desktop';

// Built to dist/main.mjs, beside preload.cjs, synth-worker.mjs and renderer/.
const distDir = path.dirname(fileURLToPath(import.meta.url));

void runDesktop(electron, {
  distDir,
  iconDir: path.join(distDir, '..', 'resources', 'icons'),
  env: process.env,
}).catch((error: Error) => {
  console.error(`Orator could not start: ${error.message}`);
  electron.app.exit(1);
});
