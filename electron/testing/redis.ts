/** Test support: a real redis-server of its own, on a free loopback port, for the Redis job queue. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import { exited, spawnGateway, spawnWorkerHost, type GatewayProcess, type WorkerHostProcess } from './process';

export interface TestRedis {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

const REDIS_SERVER = 'redis-server';

/**
 * Why the Redis tests cannot run here, or nothing when they can. A developer without redis-server
 * skips them (with this reason printed); CI installs it (.ci/run), and there its absence fails.
 */
export function redisMissing(): string | undefined {
  const probe = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  if (probe.error === undefined && probe.status === 0) return undefined;
  const reason = `${REDIS_SERVER} is not installed (apt-get install redis-server): the Redis queue tests are skipped`;
  if (process.env.CI) throw new Error(`${reason}, which CI does not allow.`);
  return reason;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Starts redis-server on 127.0.0.1 with nothing saved to disk; resolves once it takes connections. */
export async function startRedis(): Promise<TestRedis> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-redis-'));
  const port = await freePort();
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir];
  const child = spawn(REDIS_SERVER, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const collect = (data: Buffer) => {
      output += data.toString();
      if (/Ready to accept connections/.test(output)) resolve();
    };
    child.stdout!.on('data', collect);
    child.stderr!.on('data', collect);
    child.once('exit', (code) => reject(new Error(`redis-server exited (${code}) before it was ready:\n${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    child,
    async stop() {
      child.kill('SIGTERM');
      await exited(child);
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/**
 * A Redis server, a gateway queueing on it and the worker hosts a test file starts, with the
 * clean-up after the file: hosts and gateway killed, Redis stopped, the data folder removed.
 */
export function useRedisQueue(dataDirPrefix: string) {
  const children: ChildProcess[] = [];
  let redis: TestRedis | undefined;
  let dataDir: string | undefined;
  afterAll(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all(children.map((child) => exited(child)));
    await redis?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });
  return {
    /** Redis and a gateway on it with one thread of its own. */
    async start(): Promise<{ redis: TestRedis; dataDir: string; gateway: GatewayProcess }> {
      redis = await startRedis();
      dataDir = await mkdtemp(path.join(os.tmpdir(), dataDirPrefix));
      const gateway = await spawnGateway(['--data-dir', dataDir, '--queue', redis.url, '--workers', '1']);
      children.push(gateway.child);
      return { redis, dataDir, gateway };
    },
    /** A worker host serving that gateway, named, with `extra` arguments. */
    async host(gateway: GatewayProcess, name: string, extra: string[]): Promise<WorkerHostProcess> {
      const host = await spawnWorkerHost([
        ...['--queue', redis!.url, '--gateway', gateway.url, '--worker-token-file', path.join(dataDir!, 'worker-token')],
        ...['--name', name, ...extra],
      ]);
      children.push(host.child);
      return host;
    },
  };
}
