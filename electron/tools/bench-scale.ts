/**
 * `npm run bench:scale`: the Redis job queue with worker hosts, on this machine, on one job.
 * 1. embedded: the gateway's own queue (SQLite), one engine thread;
 * 2. Redis, one worker host process (one engine thread): the overhead of the Redis path against 1;
 * 3. Redis, two worker host processes: throughput against 2, and the ratio.
 * Every server is on loopback (redis-server on a free port); each run is bounded by time.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { exited, spawnGateway, spawnWorkerHost, type GatewayProcess, type WorkerHostProcess } from '../testing/process';
import { licenceText } from '../testing/prose';
import { startRedis } from '../testing/redis';

const CHARS = Number(process.env.BENCH_CHARS ?? 50_000);
const TEXT = licenceText(CHARS);
const JOB_TIMEOUT_MS = 900_000;

const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function runJob(gateway: GatewayProcess, text: string): Promise<number> {
  const started = performance.now();
  const response = await gateway.api('/api/v1/tts/synthesize', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text, mode: 'job' }),
  });
  const { job_id: id } = (await response.json()) as { job_id: string };
  for (;;) {
    const job = (await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as { status: string };
    if (job.status === 'done') return performance.now() - started;
    if (job.status !== 'running') throw new Error(`The bench job ended ${job.status}`);
    if (performance.now() - started > JOB_TIMEOUT_MS) throw new Error(`The bench job took over ${seconds(JOB_TIMEOUT_MS)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A gateway on its own data folder; with `hosts`, that many worker hosts of one engine thread each. */
async function measure(name: string, queue: string | undefined, hosts: number): Promise<number> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-bench-scale-'));
  const gateway = await spawnGateway(['--data-dir', dataDir, '--workers', '1', ...(queue ? ['--queue', queue] : [])]);
  const workers: WorkerHostProcess[] = [];
  try {
    for (let i = 0; i < hosts; i++) {
      const args = ['--queue', queue!, '--gateway', gateway.url, '--worker-token-file', path.join(dataDir, 'worker-token')];
      workers.push(await spawnWorkerHost([...args, '--name', `bench-${i + 1}`, '--concurrency', '1']));
    }
    // warm every engine thread (WASM compiled, caches filled) with a job of a few chunks per host
    await runJob(gateway, TEXT.slice(0, 1000 * Math.max(1, hosts)));
    const ms = await runJob(gateway, TEXT);
    console.log(`${name}: ${seconds(ms)} for ${CHARS} characters → ${((CHARS / ms) * 1000).toFixed(0)} characters/s`);
    return ms;
  } finally {
    for (const { child } of [...workers, gateway]) {
      child.kill('SIGTERM');
      await exited(child);
    }
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  console.log(`Orator bench:scale: ${os.availableParallelism()} cores, Node ${process.version}, ${CHARS} characters of licence text`);
  const redis = await startRedis();
  try {
    const embedded = await measure('embedded queue (SQLite), 1 engine thread', undefined, 0);
    const one = await measure('Redis queue, 1 worker host process', `${redis.url}/1`, 1);
    const two = await measure('Redis queue, 2 worker host processes', `${redis.url}/2`, 2);
    console.log(`speed-up 2 hosts / 1 host: ${(one / two).toFixed(2)}× (2.00 would be linear)`);
    console.log(`Redis path overhead against the embedded queue: ${(((one - embedded) / embedded) * 100).toFixed(1)} %`);
  } finally {
    await redis.stop();
  }
}

await main();
