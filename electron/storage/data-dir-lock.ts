import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';

const LOCK_FILE = 'gateway.lock';

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims the data dir for one gateway: two gateways on one queue would synthesize the same chunks
 * and write the same files. A lock left by a process that is gone (a crash) is taken over.
 * Returns the release function.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  const file = path.join(dataDir, LOCK_FILE);
  for (;;) {
    try {
      const handle = await open(file, 'wx', 0o600);
      await handle.writeFile(String(process.pid));
      await handle.close();
      return () => rm(file, { force: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const owner = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (owner > 0 && isRunning(owner)) {
      throw new Error(
        `Another Orator gateway (process ${owner}) is using the data folder ${dataDir}. Stop it, or start with another --data-dir.`,
      );
    }
    await rm(file, { force: true });
  }
}
