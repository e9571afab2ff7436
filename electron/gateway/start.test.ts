import Database from 'better-sqlite3';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestGateway, useTestGateways } from '../testing/gateway';
import { GATEWAY_URL_FILE } from './url-file';

const gateways = useTestGateways();
const start = gateways.start;

/** The spawn hosts (engines/spawn-host/) this test process has forked and that still run. */
function spawnHosts(): number[] {
  return readdirSync('/proc')
    .filter((entry) => /^\d+$/.test(entry))
    .filter((pid) => {
      try {
        const ppid = Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
        return ppid === process.pid && readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('spawn-host.mjs');
      } catch {
        return false; // it ended while being looked at
      }
    })
    .map(Number);
}

describe('starting the gateway', () => {
  it('refuses a second gateway on the same data folder while the first runs', async () => {
    const first = await start();
    await expect(startTestGateway({ dataDir: first.dataDir })).rejects.toThrow(
      /Another Orator gateway \(process \d+\) is using the data folder/,
    );
    expect((await first.api('/api/v1/tts/engines')).status).toBe(200);
    await gateways.close(first);
    const again = await start({ dataDir: first.dataDir });
    expect((await again.api('/api/v1/tts/engines')).status).toBe(200);
  });

  it('gives up cleanly when the port is taken: no lock left, no job touched', async () => {
    const first = await start();
    first.pauseQueue();
    const queued = await first.post('/api/v1/tts/synthesize', { text: 'Waiting.', mode: 'job' });
    const { job_id } = (await queued.json()) as { job_id: string };
    await gateways.close(first);

    const blocker = net.createServer().listen(0, '127.0.0.1');
    await new Promise((resolve) => blocker.once('listening', resolve));
    const port = (blocker.address() as net.AddressInfo).port;
    try {
      await expect(startTestGateway({ dataDir: first.dataDir, port })).rejects.toThrow(/EADDRINUSE/);
    } finally {
      blocker.close();
    }
    expect(existsSync(path.join(first.dataDir, 'gateway.lock'))).toBe(false);
    const db = new Database(path.join(first.dataDir, 'orator.db'), { readonly: true });
    expect(db.prepare('SELECT state, chunks_done FROM jobs WHERE id = ?').get(job_id)).toEqual({ state: 'queued', chunks_done: 0 });
    expect((db.prepare('SELECT SUM(attempts) AS n FROM chunks WHERE job_id = ?').get(job_id) as { n: number }).n).toBe(0);
    db.close();
  });

  it('closed in-process, stops everything it started: the spawn host of system engines among them', async () => {
    const before = new Set(spawnHosts());
    const gateway = await start();
    // a system engine's program runs through the spawn host, forked for it
    const spoken = await gateway.post('/api/v1/tts/synthesize', { text: 'Through the spawn host.', voice: 'espeak-ng-system:en-us' });
    expect(spoken.status).toBe(200);
    const forked = spawnHosts().filter((pid) => !before.has(pid));
    expect(forked).toHaveLength(1);
    await gateways.close(gateway);
    await expect.poll(() => spawnHosts().filter((pid) => forked.includes(pid))).toEqual([]);
    // a second close finds nothing left to close
    await gateway.close();
  });

  it('records its URL in the data folder while it runs (mode 0600), over one a crash left', async () => {
    const first = await start();
    const file = path.join(first.dataDir, GATEWAY_URL_FILE);
    expect(await readFile(file, 'utf8')).toBe(`${first.url}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    await gateways.close(first);
    expect(existsSync(file)).toBe(false);
    await writeFile(file, 'http://127.0.0.1:1\n', { mode: 0o644 });
    const second = await start({ dataDir: first.dataDir });
    expect(await readFile(file, 'utf8')).toBe(`${second.url}\n`);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('bound to every interface, gives a loopback URL that works', async () => {
    const gateway = await start({ host: '0.0.0.0' });
    expect(gateway.url).toBe(`http://127.0.0.1:${gateway.port}`);
    expect((await fetch(`${gateway.url}/`)).status).toBe(200);
    expect((await gateway.api('/api/v1/tts/engines')).status).toBe(200);
  });

  it('clears engine temp files a killed gateway left in its data dir', async () => {
    const first = await start();
    await gateways.close(first);
    const stale = path.join(first.dataDir, 'tmp', 'orator-left-by-a-crash');
    await mkdir(stale, { recursive: true });
    await writeFile(path.join(stale, 'in.txt'), 'half done');
    await start({ dataDir: first.dataDir });
    expect(existsSync(stale)).toBe(false);
  });
});
