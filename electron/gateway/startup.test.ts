/**
 * The headless gateway as a real child process (node dist/serve.mjs): what it prints at start,
 * where a person or a log may read it, and how it refuses to start on a folder or database it
 * cannot use.
 */
import { spawn, type SpawnOptions } from 'node:child_process';
import { chmodSync, chownSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { exited, spawnGateway, type GatewayProcess } from '../testing/process';

const SERVE = path.resolve('dist/serve.mjs');
let root: string;
const running: GatewayProcess[] = [];
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'orator-startup-'));
});
afterEach(async () => {
  for (const gateway of running.splice(0)) {
    gateway.child.kill('SIGTERM');
    await exited(gateway.child);
  }
  await rm(root, { recursive: true, force: true });
});

async function serve(args: string[]): Promise<GatewayProcess> {
  const gateway = await spawnGateway(args);
  running.push(gateway);
  return gateway;
}

/** Runs a start that is expected to fail: its exit code and what it said. */
function refusedStart(args: string[], options: SpawnOptions = {}): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [SERVE, '--port', '0', ...args], { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (data: Buffer) => (stdout += data.toString()));
    child.stderr!.on('data', (data: Buffer) => (stderr += data.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`it started instead of refusing:\n${stdout}${stderr}`));
    }, 30_000);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** A start on a terminal (a pseudo-terminal made by util-linux `script`), as a person sees it. */
function startOnTerminal(dataDir: string): Promise<string> {
  const command = [process.execPath, SERVE, '--port', '0', '--data-dir', dataDir].map((a) => `'${a}'`).join(' ');
  // stdin stays open: `script` ends the session when its input ends
  const child = spawn('script', ['-qfec', command, '/dev/null'], { detached: true, stdio: ['pipe', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let output = '';
    let line: string | undefined;
    child.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      if (line) return;
      line = /Orator gateway at .*\r?\n/.exec(output)?.[0];
      if (line) process.kill(-child.pid!, 'SIGTERM');
    });
    child.on('error', reject);
    child.once('exit', (code) => {
      if (!line) return reject(new Error(`script exited (${code}) before the gateway listened:\n${output}`));
      void gatewayGone(dataDir).then(() => resolve(line!.trim()), reject);
    });
  });
}

/** The gateway under `script` outlives it for a moment: wait until the process that held the data folder is gone. */
async function gatewayGone(dataDir: string): Promise<void> {
  const pid = Number(await readFile(path.join(dataDir, 'gateway.lock'), 'utf8').catch(() => '0'));
  for (let i = 0; pid > 0 && i < 300; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  if (pid > 0) throw new Error(`the gateway (process ${pid}) did not stop`);
}

describe('the start-up line', () => {
  it('shows the studio link with the key only on a terminal, and only at the start that made the key', async () => {
    const dataDir = path.join(root, 'terminal');
    const first = await startOnTerminal(dataDir);
    const key = (await readFile(path.join(dataDir, 'api-key'), 'utf8')).trim();
    const instance = (await readFile(path.join(dataDir, 'instance-id'), 'utf8')).trim();
    expect(first).toMatch(
      new RegExp(
        `^Orator gateway at (http://127\\.0\\.0\\.1:\\d+)/ · instance ${instance} · studio: \\1/#key=${key} · API key saved in ${dataDir}/api-key · admin token in ${dataDir}/admin-token$`,
      ),
    );
    const second = await startOnTerminal(dataDir);
    expect(second).toMatch(
      new RegExp(
        `^Orator gateway at http://127\\.0\\.0\\.1:\\d+/ · instance ${instance} · API key in ${dataDir}/api-key · admin token in ${dataDir}/admin-token$`,
      ),
    );
    expect(second).not.toContain(key);
  });

  it('never shows the key into a pipe (a log, journald, docker logs), even at the first start', async () => {
    const dataDir = path.join(root, 'piped');
    const gateway = await serve(['--data-dir', dataDir]);
    expect(gateway.output()).toMatch(
      /^Orator gateway at http:\/\/127\.0\.0\.1:\d+\/ · instance [\w-]{12} · API key in \S+\/api-key · admin token in \S+\/admin-token\n$/,
    );
    expect(gateway.output()).not.toContain(gateway.apiKey);
    expect((await gateway.api('/api/v1/tts/engines')).status).toBe(200);
  });

  it('takes --api-key still, warning that other users can read it, and never prints it', async () => {
    const gateway = await serve(['--data-dir', path.join(root, 'argv'), '--api-key', 'a-key-given-on-argv']);
    expect((await gateway.api('/api/v1/tts/engines')).status).toBe(200);
    expect(gateway.apiKey).toBe('a-key-given-on-argv');
    expect(gateway.output()).toContain(
      'Warning: --api-key puts the key on the command line, where other users of this machine can read it (ps, /proc/<pid>/cmdline). Use --api-key-file <file> (mode 0600) or ORATOR_API_KEY instead.',
    );
    expect(gateway.output()).toContain(' · API key from --api-key · admin token in ');
    expect(gateway.output().split('a-key-given-on-argv')).toHaveLength(1);
  });

  it('reads --api-key-file, and refuses one that other users can read', async () => {
    const keyFile = path.join(root, 'key');
    await writeFile(keyFile, 'a-key-from-a-file\n', { mode: 0o600 });
    const gateway = await serve(['--data-dir', path.join(root, 'file'), '--api-key-file', keyFile]);
    expect(gateway.apiKey).toBe('a-key-from-a-file');
    expect((await gateway.api('/api/v1/tts/engines')).status).toBe(200);
    expect(gateway.output()).toContain(` · API key from --api-key-file ${keyFile} · admin token in `);
    expect(gateway.output()).not.toContain('a-key-from-a-file');

    await chmod(keyFile, 0o644);
    const refused = await refusedStart(['--data-dir', path.join(root, 'file2'), '--api-key-file', keyFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toBe(
      `Orator could not start: The API key file ${keyFile} is open to other users (mode 0644), who could read the key. Make it private first: chmod 600 ${keyFile}\n`,
    );
  });
});

describe('refusing to start', () => {
  it('on a damaged database: names the file and the ways out, and leaves it as it was', async () => {
    const dataDir = path.join(root, 'damaged');
    await mkdir(dataDir);
    const garbage = Buffer.from('This was a database before the disk failed. '.repeat(200));
    await writeFile(path.join(dataDir, 'orator.db'), garbage);
    const { code, stderr } = await refusedStart(['--data-dir', dataDir]);
    expect(code).toBe(1);
    const file = path.join(dataDir, 'orator.db');
    expect(stderr).toBe(
      `Orator could not start: The database ${file} is damaged (file is not a database). Orator will not start on it, as starting empty would hide the jobs it holds. ` +
        `Restore it from a backup, or move it aside to start with an empty job list: rename ${file} (and ${file}-wal and ${file}-shm, if present) to another name.\n`,
    );
    expect((await readFile(file)).equals(garbage)).toBe(true);
  });

  it('when the parent of --data-dir is missing: one sentence, no ENOENT', async () => {
    const dataDir = path.join(root, 'unmounted-disk', 'orator');
    const { code, stderr } = await refusedStart(['--data-dir', dataDir]);
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Orator could not start: The folder ${path.dirname(dataDir)}, which is to hold the data folder ${dataDir}, does not exist. Create it, or choose another --data-dir.\n`,
    );
  });

  it('on a read-only data folder', async () => {
    const dataDir = path.join(root, 'read-only');
    await mkdir(dataDir, { mode: 0o500 });
    // Root may write anywhere: then the gateway runs as nobody, for whom the folder is read-only.
    const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
    if (asNobody.uid !== undefined) {
      chmodSync(root, 0o755);
      chownSync(dataDir, asNobody.uid, asNobody.gid);
    }
    const { code, stderr } = await refusedStart(['--data-dir', dataDir], { ...asNobody, cwd: os.tmpdir() });
    expect(code).toBe(1);
    expect(stderr).toBe(
      `Orator could not start: The data folder ${dataDir} is read-only (EACCES). Orator writes its job queue and audio there: make it writable for this user, or choose another --data-dir.\n`,
    );
  });
});
