/**
 * The desktop app's main process. Thin on purpose: everything lives in ./shell, which takes the
 * `electron` module as an argument so that it can be tested in plain Node. Given a command
 * (`orator say …`), the same binary is the command line and opens no window (docs/cli.md).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import electron from 'electron';
import { isCommandLine, runCommandLine } from './cli/main';
import { runDesktop } from './shell/desktop';

// Built to dist/main.mjs, beside preload.cjs, synth-worker.mjs and renderer/.
const distDir = path.dirname(fileURLToPath(import.meta.url));
// A packaged app's arguments follow its binary; in development they follow the app's path.
const args = process.argv.slice(electron.app.isPackaged ? 1 : 2);

if (isCommandLine(args)) {
  void runCommandLine(args).then((code) => electron.app.exit(code));
} else {
  void runDesktop(electron, {
    distDir,
    iconDir: path.join(distDir, '..', 'resources', 'icons'),
    env: process.env,
  }).catch((error: Error) => {
    console.error(`Orator could not start: ${error.message}`);
    electron.app.exit(1);
  });
}
