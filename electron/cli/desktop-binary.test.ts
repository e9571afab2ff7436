/**
 * The desktop app's binary is the command line too: dist/main.mjs given a command runs it and
 * opens no window. Electron cannot run here, so the built main.mjs runs under Node with a double
 * of the `electron` module (a resolve hook): the edge we cannot run, and only that, is faked.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { decodeWav } from '../audio/wav';
import { startTestGateway, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
let dir: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-desktop-cli-'));
  // app.exit is Electron's way out; anything else the desktop would use is missing, so a desktop start fails loudly
  await writeFile(path.join(dir, 'electron.mjs'), 'export default { app: { isPackaged: false, exit: (code) => process.exit(code) } };\n');
  await writeFile(
    path.join(dir, 'hooks.mjs'),
    `export async function resolve(specifier, context, next) {
  if (specifier === 'electron') return { url: new URL('./electron.mjs', import.meta.url).href, shortCircuit: true };
  return next(specifier, context);
}\n`,
  );
  await writeFile(path.join(dir, 'register.mjs'), "import { register } from 'node:module';\nregister('./hooks.mjs', import.meta.url);\n");
});
afterAll(async () => {
  await gateway.stop();
  await rm(dir, { recursive: true, force: true });
});

/** `orator <args>` as the desktop binary in development (`electron dist/main.mjs <args>`). */
function desktopBinary(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', path.join(dir, 'register.mjs'), path.resolve('dist/main.mjs'), ...args],
      { env: { PATH: process.env.PATH, ORATOR_DATA_DIR: gateway.dataDir } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr }),
    );
  });
}

it('runs `say` as the command line and exits with its code, without starting the desktop', async () => {
  const output = path.join(dir, 'hello.wav');
  const run = await desktopBinary(['say', 'Hello from the desktop binary.', '-o', output]);
  expect([run.code, run.stderr]).toEqual([0, '']);
  const { samples, sampleRate } = decodeWav(await readFile(output));
  expect(samples.length / sampleRate).toBeGreaterThan(1);
  expect(samples.some((sample) => Math.abs(sample) > 1000)).toBe(true);

  const usage = await desktopBinary(['say', '--bogus']);
  expect(usage.code).toBe(2);
  expect(usage.stderr).toContain("orator: Unknown option '--bogus'");
  expect((await desktopBinary(['--version'])).stdout).toMatch(/^\d+\.\d+\.\d+/);
});

it('starts the desktop for anything else', async () => {
  const run = await desktopBinary([]);
  // the double has no window to open: the desktop's start is what fails
  expect(run.code).toBe(1);
  expect(run.stderr).toContain('Orator could not start');
});
