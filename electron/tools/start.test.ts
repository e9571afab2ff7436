import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect, it } from 'vitest';

const started: { pid: number; dirs: string[] }[] = [];

/** The command line and environment of the process in group `group` (Linux /proc) that runs `entry`. */
async function processOf(group: number, entry: string): Promise<{ argv: string[]; environment: string[] }> {
  for (const pid of (await readdir('/proc')).filter((name) => /^\d+$/.test(name))) {
    try {
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const processGroup = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
      const argv = (await readFile(`/proc/${pid}/cmdline`, 'utf8')).split('\0');
      if (processGroup === group && argv.some((arg) => arg.endsWith(entry))) {
        return { argv, environment: (await readFile(`/proc/${pid}/environ`, 'utf8')).split('\0') };
      }
    } catch {
      // exited meanwhile
    }
  }
  throw new Error(`No process runs ${entry} in group ${group}`);
}

afterEach(async () => {
  for (const { pid, dirs } of started.splice(0)) {
    try {
      process.kill(-pid, 'SIGTERM'); // the group: start.ts and the gateway under it
    } catch {
      // already gone
    }
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  }
});

it('npm start (start.ts, once built) says in one line that Electron is unavailable and serves the studio headless, naming where the key is', async () => {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-start-'));
  const noElectron = await mkdtemp(path.join(os.tmpdir(), 'orator-no-electron-'));
  // What `npm start` runs once it has built: rebuilding here would rewrite dist/ under the test
  // files that run its bundles meanwhile, and with vitest's NODE_ENV=test it would leave a
  // development build of the studio for the Playwright specs that follow.
  const { NODE_ENV: _testEnv, ...environment } = process.env;
  const child = spawn(process.execPath, ['--import', 'tsx', 'electron/tools/start.ts', '--port', '0', '--data-dir', dataDir], {
    detached: true,
    env: {
      ...environment,
      // Electron is looked for in an empty folder and never downloaded, whatever this machine has;
      // a display is claimed so that the missing binary is the reason.
      ELECTRON_OVERRIDE_DIST_PATH: noElectron,
      ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
      DISPLAY: ':99',
    },
  });
  started.push({ pid: child.pid!, dirs: [dataDir, noElectron] });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk));
  const [gatewayUrl, keyFile] = await new Promise<[string, string]>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
      const match = /Orator gateway at (http:\/\/\S+?)\/ · .* · API key in (\S+) · admin token in \S+\n/.exec(stdout);
      if (match) resolve([match[1]!, match[2]!]);
    });
    child.on('exit', (code) => reject(new Error(`start.ts exited (${code}):\n${stdout}\n${stderr}`)));
  });

  const lines = stdout.trim().split('\n');
  expect(lines.filter((line) => /electron/i.test(line))).toEqual([
    'Electron is unavailable (its binary is not installed and could not be downloaded); starting the headless gateway with the web studio instead.',
  ]);
  expect(stderr).not.toMatch(/^[ \t]+at /m); // no stack trace
  // The key was made by this start, but the output is a pipe, not a person: it is not printed.
  const key = (await readFile(keyFile, 'utf8')).trim();
  expect(stdout).not.toContain(key);
  expect(stdout).not.toContain('#key=');

  const url = new URL(gatewayUrl);
  const page = await fetch(new URL('/', url));
  expect(page.status).toBe(200);
  expect(page.headers.get('content-type')).toContain('text/html');
  const engines = await fetch(new URL('/api/v1/tts/engines', url), { headers: { authorization: `Bearer ${key}` } });
  expect(engines.status).toBe(200);
  expect(((await engines.json()) as { engines: unknown[] }).engines.length).toBeGreaterThan(0);

  // the gateway runs in a process of its own, started with its memory settings (gateway-process.ts)
  const gateway = await processOf(child.pid!, path.join('dist', 'serve.mjs'));
  expect(gateway.environment).toEqual(expect.arrayContaining(['MALLOC_ARENA_MAX=2', 'MALLOC_MMAP_THRESHOLD_=131072']));
  const entry = gateway.argv.findIndex((arg) => arg.endsWith(path.join('dist', 'serve.mjs')));
  expect(gateway.argv.slice(1, entry)).toEqual(['--max-semi-space-size=1', '--heap-growing-percent=50', '--optimize-for-size']);
});
