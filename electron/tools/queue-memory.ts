/**
 * Measures what a full queue costs the gateway's memory: a gateway in a child process, its queue
 * paused, gets `jobs` jobs of `chars` characters each over HTTP; its RSS and heap (after a full
 * collection) are read before, after, and after a restart that takes the jobs up again.
 * Run `npm run build` first (the worker bundle), then:
 *   npx tsx electron/tools/queue-memory.ts [jobs=200] [chars=500000]
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configFromArgs } from '../gateway/config';
import { startGateway } from '../gateway/start';
import { prose } from '../testing/prose';

type Reading = { rss: number; heapUsed: number };
type FromChild = { url: string; apiKey: string } | Reading;

const MB = 1024 * 1024;

/** The child: a paused gateway that answers "measure" and "close". */
async function serve(dataDir: string): Promise<void> {
  const config = {
    ...configFromArgs([], {}),
    port: 0,
    dataDir,
    workers: 1,
    maxQueuedJobs: 100_000,
    maxQueuedChars: Number.MAX_SAFE_INTEGER,
  };
  const gateway = await startGateway(config, { workerFile: path.resolve('dist/synth-worker.mjs') });
  gateway.pauseQueue();
  process.on('message', (message) => {
    if (message === 'measure') {
      (globalThis as { gc?: () => void }).gc?.();
      const { rss, heapUsed } = process.memoryUsage();
      process.send!({ rss, heapUsed });
    } else if (message === 'close') void gateway.close().then(() => process.exit(0));
  });
  process.send!({ url: gateway.url, apiKey: gateway.apiKey });
}

class Child {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    readonly apiKey: string,
  ) {}

  static async start(dataDir: string): Promise<Child> {
    const child = fork(fileURLToPath(import.meta.url), ['--serve', dataDir], { execArgv: ['--expose-gc', '--import', 'tsx'] });
    const ready = (await next(child)) as { url: string; apiKey: string };
    return new Child(child, ready.url, ready.apiKey);
  }

  async measure(): Promise<Reading> {
    this.child.send('measure');
    return (await next(this.child)) as Reading;
  }

  async close(): Promise<void> {
    this.child.send('close');
    await new Promise((resolve) => this.child.once('exit', resolve));
  }
}

function next(child: ChildProcess): Promise<FromChild> {
  return new Promise((resolve, reject) => {
    child.once('message', (message) => resolve(message as FromChild));
    child.once('exit', (code) => reject(new Error(`the gateway exited with ${code}`)));
  });
}

async function main(jobs: number, chars: number): Promise<void> {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-queue-memory-'));
  const rows: [string, Reading][] = [];
  try {
    const first = await Child.start(dataDir);
    rows.push(['started, queue empty', await first.measure()]);
    const text = prose(chars);
    const started = performance.now();
    for (let i = 0; i < jobs; i++) {
      const response = await fetch(`${first.url}/api/v1/tts/synthesize`, {
        method: 'POST',
        headers: { authorization: `Bearer ${first.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ text: `Job ${i}. ${text}`, mode: 'job' }),
      });
      if (response.status !== 202) throw new Error(`job ${i}: ${response.status} ${await response.text()}`);
    }
    const seconds = (performance.now() - started) / 1000;
    rows.push([`${jobs} × ${chars} characters queued (${seconds.toFixed(0)} s)`, await first.measure()]);
    await first.close();
    const second = await Child.start(dataDir);
    rows.push(['restarted, all taken up', await second.measure()]);
    await second.close();
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
  for (const [label, { rss, heapUsed }] of rows) {
    console.log(`${label.padEnd(48)} RSS ${(rss / MB).toFixed(0).padStart(5)} MB   heap ${(heapUsed / MB).toFixed(1).padStart(7)} MB`);
  }
}

if (process.argv[2] === '--serve') await serve(process.argv[3]!);
else await main(Number(process.argv[2] ?? 200), Number(process.argv[3] ?? 500_000));
