/**
 * `npm run bench:load`: the gateway under load, on loopback only, in three bounded phases.
 * 1. 100 concurrent clients on GET /engines;
 * 2. 100 concurrent clients of short inline synthesis (the embedded eSpeak NG);
 * 3. 200 jobs submitted at once, waited for.
 * The gateway is its own process (dist/serve.mjs, a temporary data dir) so that its memory is
 * its own: resident set sampled every 100 ms and the kernel's peak (VmHWM). Exits 1 on any error
 * other than a documented 429 and on any job lost or failed.
 */
import autocannon from 'autocannon';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { TTS_ROOT } from '../contract';
import { exited, spawnGateway, type GatewayProcess } from '../testing/process';
import { prose } from '../testing/prose';
import { RssSampler } from './bench/gateway-probes';

const CONNECTIONS = 100;
const JOBS = 200;
/** Each phase stops after its count or this long, whichever comes first. */
const PHASE_LIMIT_MS = 60_000;
const JOBS_LIMIT_MS = 300_000;

const problems: string[] = [];
/** The highest resident set sampled over the run. */
let sampledPeak = 0;
const mb = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`;

/** Runs one phase: its result, and the gateway's highest resident set sampled while it ran. */
async function sampled<T>(rss: RssSampler, work: () => Promise<T>): Promise<[T, number]> {
  rss.reset();
  const result = await work();
  rss.sample();
  sampledPeak = Math.max(sampledPeak, rss.peak());
  return [result, rss.peak()];
}

function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(options, (error, result) => (error ? reject(error) : resolve(result)));
    const timer = setTimeout(() => instance.stop(), PHASE_LIMIT_MS);
    instance.on('done', () => clearTimeout(timer));
  });
}

function statuses(result: autocannon.Result): Record<string, number> {
  return Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, { count }]) => [code, count ?? 0]));
}

/** One autocannon phase: prints its figures, records every answer but a 2xx or a documented 429 as a problem. */
async function phase(gateway: GatewayProcess, rss: RssSampler, name: string, route: string, options: Omit<autocannon.Options, 'url'>) {
  const [result, peak] = await sampled(rss, () => cannon({ url: gateway.url + route, connections: CONNECTIONS, ...options }));
  const byStatus = statuses(result);
  const rate = result.requests.total / result.duration;
  console.log(
    `${name}: ${result.requests.total} requests in ${result.duration.toFixed(1)} s, ${rate.toFixed(0)} req/s, ` +
      `p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms, statuses ${JSON.stringify(byStatus)}, ` +
      `errors ${result.errors} (timeouts ${result.timeouts}), gateway RSS peak ${mb(peak)}`,
  );
  for (const [code, count] of Object.entries(byStatus))
    if (!code.startsWith('2') && code !== '429') problems.push(`${name}: ${count} × ${code}`);
  if (result.errors) problems.push(`${name}: ${result.errors} connection errors or timeouts`);
}

async function jobsAtOnce(gateway: GatewayProcess, rss: RssSampler) {
  const text = prose(400);
  const [outcome, peak] = await sampled(rss, async () => {
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: JOBS }, async () => {
        const sent = performance.now();
        const response = await gateway.api(`${TTS_ROOT}/synthesize`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ text, mode: 'job' }),
        });
        const body = (await response.json()) as { job_id?: string };
        return { status: response.status, id: body.job_id, ms: performance.now() - sent };
      }),
    );
    const accepted = new Set(answers.flatMap((a) => (a.status === 202 && a.id ? [a.id] : [])));
    let finished: { job_id: string; status: string }[] = [];
    while (performance.now() - started < JOBS_LIMIT_MS) {
      const list = (await (await gateway.api(`${TTS_ROOT}/jobs?limit=200`)).json()) as { jobs: { job_id: string; status: string }[] };
      finished = list.jobs.filter((job) => accepted.has(job.job_id) && job.status !== 'running');
      if (finished.length === accepted.size) break;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    return { answers, accepted, finished, seconds: (performance.now() - started) / 1000 };
  });
  const { answers, accepted, finished, seconds } = outcome;
  const byStatus: Record<string, number> = {};
  for (const { status } of answers) byStatus[status] = (byStatus[status] ?? 0) + 1;
  const latencies = answers.map((a) => a.ms).sort((a, b) => a - b);
  const at = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(0);
  const done = finished.filter((job) => job.status === 'done').length;
  const failed = finished.length - done;
  const lost = accepted.size - finished.length;
  console.log(
    `${JOBS} jobs at once (${text.length} characters each): submitted p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, ` +
      `statuses ${JSON.stringify(byStatus)}; ${done} done, ${failed} failed, ${lost} lost or unfinished after ${seconds.toFixed(1)} s, ` +
      `gateway RSS peak ${mb(peak)}`,
  );
  for (const [code, count] of Object.entries(byStatus)) if (code !== '202' && code !== '429') problems.push(`jobs: ${count} × ${code}`);
  if (failed) problems.push(`jobs: ${failed} failed`);
  if (lost) problems.push(`jobs: ${lost} lost or unfinished after ${JOBS_LIMIT_MS / 1000} s`);
}

async function main() {
  const load = os.loadavg()[0]!.toFixed(1);
  console.log(
    `Orator load bench: ${os.availableParallelism()} cores (load average ${load} before it), Node ${process.version}, loopback only`,
  );
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-load-'));
  const gateway = await spawnGateway(['--host', '127.0.0.1', '--data-dir', dataDir]);
  const headers = { authorization: `Bearer ${gateway.apiKey}` };
  const pid = gateway.child.pid!;
  const rss = new RssSampler(pid);
  try {
    console.log(`gateway (pid ${pid}) at ${gateway.url}, RSS at start ${mb(RssSampler.bytes(pid))}`);
    await phase(gateway, rss, `GET /engines, ${CONNECTIONS} clients`, `${TTS_ROOT}/engines`, { amount: 20_000, headers });
    await phase(gateway, rss, `inline synthesis (${prose(40).length} characters), ${CONNECTIONS} clients`, `${TTS_ROOT}/synthesize`, {
      amount: 2_000,
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ text: prose(40) }),
    });
    await jobsAtOnce(gateway, rss);
    const peak = Math.max(RssSampler.kernelPeak(pid), sampledPeak);
    console.log(`gateway RSS now ${mb(RssSampler.bytes(pid))}, peak over the whole run ${mb(peak)}`);
  } finally {
    rss.stop();
    gateway.child.kill('SIGTERM');
    await exited(gateway.child);
    await rm(dataDir, { recursive: true, force: true });
  }
  if (problems.length) {
    console.error(`FAILED:\n  ${problems.join('\n  ')}`);
    process.exitCode = 1;
  } else console.log('no errors other than documented 429s, no job lost');
}

await main();
