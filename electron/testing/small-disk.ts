/**
 * Test support: a small, real disk (tmpfs) that only the processes started on it see. It lives in
 * a private mount namespace held open by a sleeping process; root is not needed, since an
 * unprivileged user becomes root of a new user namespace (`unshare --map-root-user`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

export interface SmallDisk {
  /** The mount point, as processes on the disk see it. */
  dir: string;
  /** A path on the disk as this process reaches it (through the holder's root, /proc/<pid>/root). */
  outside(...parts: string[]): string;
  /** The command prefix that runs a program in the disk's namespace. */
  launcher: string[];
  close(): Promise<void>;
}

export async function smallDisk(megabytes: number): Promise<SmallDisk> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-small-disk-'));
  const asUser = process.getuid?.() !== 0;
  const holder = spawn(
    'unshare',
    [
      ...(asUser ? ['--map-root-user'] : []),
      '--mount',
      '--propagation',
      'private',
      'sh',
      '-c',
      `mount -t tmpfs -o size=${megabytes}m orator-test "$0" && echo mounted && exec sleep 3600`,
      dir,
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  await mounted(holder);
  const pid = holder.pid!;
  return {
    dir,
    outside: (...parts) => path.join(`/proc/${pid}/root`, dir, ...parts),
    launcher: ['nsenter', `--target=${pid}`, '--mount', ...(asUser ? ['--user', '--preserve-credentials'] : []), `--wd=${process.cwd()}`],
    async close() {
      holder.kill('SIGKILL');
      await new Promise((resolve) =>
        holder.exitCode !== null || holder.signalCode !== null ? resolve(null) : holder.once('exit', resolve),
      );
      await rm(dir, { recursive: true, force: true });
    },
  };
}

function mounted(holder: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let output = '';
    holder.stdout!.on('data', (data: Buffer) => {
      output += data.toString();
      if (output.includes('mounted')) resolve();
    });
    holder.stderr!.on('data', (data: Buffer) => (output += data.toString()));
    holder.on('exit', (code) => reject(new Error(`Could not mount a test tmpfs (${code}): ${output}`)));
  });
}
