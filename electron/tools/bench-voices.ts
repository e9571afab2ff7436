/**
 * `npm run bench:voices [-- --mb 160 --rounds 5]`: issue 31's install figures, on loopback. A file of
 * random bytes is served by a child process (bench/file-server-child.ts: ETag, Range) and fetched,
 * in rounds, by `curl -o` and by Orator's download as an install runs it (voices/download.ts:
 * streamed into a .part file, hashed as it arrives, each piece asked of the disk ledger, size and
 * hash checked at the end) with sha256 (sherpa-onnx archives) and md5 (Piper voices). Then the
 * cost of a resume: the server cuts the answer half-way; Orator resumes with Range + If-Range after
 * hashing the half it has, against curl run again with `-C -`. Bytes that came twice are counted.
 * Files go to the system's temporary folder; MB are 10^6 bytes.
 */
import { spawn, fork } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { DiskBudget } from '../jobs/disk-budget';
import type { Misbehaviour } from '../testing/file-server';
import { downloadFile } from '../voices/download';

const { values } = parseArgs({ options: { mb: { type: 'string', default: '160' }, rounds: { type: 'string', default: '5' } } });
const BYTES = Math.round(Number(values.mb) * 1e6);
const ROUNDS = Number(values.rounds);
if (!(BYTES > 0) || !Number.isInteger(ROUNDS) || ROUNDS < 1) throw new Error('--mb takes a size in MB and --rounds a whole number from 1');
const NAME = 'voice.bin';

const load = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const rate = (ms: number) => BYTES / 1e6 / (ms / 1000);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;

/** The file, written in 16 MB pieces; its sha256 and md5, and how long hashing took in memory. */
async function writeRandomFile(file: string): Promise<{ sha256: string; md5: string; hashMs: number }> {
  const sha256 = createHash('sha256');
  const md5 = createHash('md5');
  let hashMs = 0;
  const out = createWriteStream(file);
  for (let left = BYTES; left > 0; left -= 16e6) {
    const piece = randomBytes(Math.min(left, 16e6));
    const started = performance.now();
    sha256.update(piece);
    md5.update(piece);
    hashMs += performance.now() - started;
    if (!out.write(piece)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
  return { sha256: sha256.digest('hex'), md5: md5.digest('hex'), hashMs };
}

interface Server {
  url: string;
  misbehave(m: Misbehaviour): Promise<void>;
  stop(): void;
}

async function startServer(file: string): Promise<Server> {
  const child = fork(fileURLToPath(new URL('./bench/file-server-child.ts', import.meta.url)), [file]);
  const { url } = await new Promise<{ url: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as { url: string }));
    child.once('exit', (code) => reject(new Error(`the file server exited (${code})`)));
  });
  return {
    url: `${url}/${NAME}`,
    misbehave: (m) => new Promise((resolve) => child.send(m, () => child.once('message', () => resolve()))),
    stop: () => child.disconnect(),
  };
}

/** Milliseconds of `curl` fetching the URL into `out`, with its exit code (18: the transfer was cut). */
function curl(url: string, out: string, resume = false): Promise<{ ms: number; code: number }> {
  const started = performance.now();
  const child = spawn('curl', ['-sS', ...(resume ? ['-C', '-'] : []), '-o', out, url], { stdio: ['ignore', 'ignore', 'pipe'] });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('exit', (code) => resolve({ ms: performance.now() - started, code: code ?? -1 }));
  });
}

/** Orator's download as the installer calls it: each piece asked of the disk ledger first, progress counted. */
async function orator(url: string, part: string, hash: { algorithm: 'sha256' | 'md5'; hex: string }) {
  const disk = new DiskBudget(path.dirname(part), 0);
  let progress = 0;
  const started = performance.now();
  const { fetched } = await downloadFile({ url, size: BYTES, hash }, part, {
    assertRoom: (bytes) => disk.write('voice:bench', bytes),
    onBytes: (bytes) => (progress += bytes),
  });
  const ms = performance.now() - started;
  if (progress !== BYTES) throw new Error(`progress says ${progress} bytes, not ${BYTES}`);
  return { ms, fetched };
}

async function checkedSize(file: string): Promise<void> {
  const { size } = await stat(file);
  if (size !== BYTES) throw new Error(`${file} has ${size} bytes, not ${BYTES}`);
}

interface Files {
  server: Server;
  out: string;
  part: string;
  hashes: { sha256: string; md5: string };
}

/** Lets the kernel write out what earlier downloads left in memory, so that none pays for another's. */
function flushDisk(): Promise<void> {
  return new Promise((resolve, reject) =>
    spawn('sync')
      .on('exit', () => resolve())
      .on('error', reject),
  );
}

/**
 * Times each contender once per round (ms), a round's contenders seconds apart, each after a sync;
 * the order turns from round to round, so that none is always first or last.
 */
async function rotatedRounds<K extends string>(label: string, contenders: Record<K, () => Promise<number>>): Promise<Record<K, number>[]> {
  const names = Object.keys(contenders) as K[];
  const rounds: Record<K, number>[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const times = {} as Record<K, number>;
    for (let i = 0; i < names.length; i++) {
      const name = names[(round + i) % names.length]!;
      await flushDisk();
      times[name] = await contenders[name]();
    }
    rounds.push(times);
    console.log(`${label} ${round + 1} (load ${load()}): ${names.map((n) => `${n} ${rate(times[n]).toFixed(0)} MB/s`).join(', ')}`);
  }
  return rounds;
}

/** curl -o, and Orator with sha256 and with md5. */
function downloadRounds({ server, out, part, hashes }: Files) {
  const oratorWith = (hash: { algorithm: 'sha256' | 'md5'; hex: string }) => async () => {
    const { ms } = await orator(server.url, part, hash);
    await rm(part);
    return ms;
  };
  return rotatedRounds('round', {
    curl: async () => {
      const { ms, code } = await curl(server.url, out);
      if (code !== 0) throw new Error(`curl exited ${code}`);
      await checkedSize(out);
      await rm(out);
      return ms;
    },
    sha256: oratorWith({ algorithm: 'sha256', hex: hashes.sha256 }),
    md5: oratorWith({ algorithm: 'md5', hex: hashes.md5 }),
  });
}

/** Orator uncut, Orator cut half-way and resumed, and curl cut then run again with -C -; the bytes fetched of each resume. */
async function resumeRounds({ server, out, part, hashes }: Files) {
  const hash = { algorithm: 'sha256' as const, hex: hashes.sha256 };
  const fetched: number[] = [];
  const rounds = await rotatedRounds('resume', {
    uncut: async () => {
      const { ms } = await orator(server.url, part, hash);
      await rm(part);
      return ms;
    },
    resumed: async () => {
      await server.misbehave({ cutHalfway: NAME });
      const result = await orator(server.url, part, hash);
      fetched.push(result.fetched);
      await rm(part);
      return result.ms;
    },
    curl: async () => {
      await server.misbehave({ cutHalfway: NAME });
      const first = await curl(server.url, out);
      const second = await curl(server.url, out, true);
      if (first.code !== 18 || second.code !== 0) throw new Error(`curl's cut and resume exited ${first.code} and ${second.code}`);
      await checkedSize(out);
      await rm(out);
      return first.ms + second.ms;
    },
  });
  return { rounds, fetched };
}

/** "2.10× (1.80–2.60×)": the median of per-round ratios and their spread. */
function ratios(xs: number[]): string {
  const sorted = [...xs].sort((a, b) => a - b);
  return `${median(sorted).toFixed(2)}× (${sorted[0]!.toFixed(2)}–${sorted.at(-1)!.toFixed(2)}×)`;
}

function report(downloads: Awaited<ReturnType<typeof downloadRounds>>, resumes: Awaited<ReturnType<typeof resumeRounds>>): void {
  const mbps = (times: number[]) => rate(median(times)).toFixed(0);
  console.log(`\n| ${ROUNDS} rounds | median MB/s | time / curl's, per round: median (range) |\n|---|---|---|`);
  console.log(`| curl -o | ${mbps(downloads.map((r) => r.curl))} | 1 |`);
  for (const hash of ['sha256', 'md5'] as const) {
    console.log(`| Orator, ${hash} | ${mbps(downloads.map((r) => r[hash]))} | ${ratios(downloads.map((r) => r[hash] / r.curl))} |`);
  }
  const { rounds } = resumes;
  console.log(`| cut half-way and resumed: curl, then curl -C - | ${mbps(rounds.map((r) => r.curl))} | |`);
  console.log(
    `| cut half-way and resumed: Orator, sha256 | ${mbps(rounds.map((r) => r.resumed))} | ${ratios(rounds.map((r) => r.resumed / r.curl))} of curl's cut and resume |`,
  );
  console.log(
    `\nresume cost: the cut download takes ${ratios(rounds.map((r) => r.resumed / r.uncut))} Orator's uncut one of the same round`,
  );
  console.log(`bytes fetched twice: ${resumes.fetched.map((f) => f - BYTES).join(', ')}`);
}

async function main() {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-bench-voices-'));
  const source = path.join(dir, NAME);
  try {
    console.log(
      `Orator install bench: ${os.cpus()[0]?.model}, ${os.availableParallelism()} cores, Node ${process.version}, load ${load()}`,
    );
    const hashes = await writeRandomFile(source);
    console.log(
      `file: ${(BYTES / 1e6).toFixed(0)} MB of random bytes in ${dir}; sha256 + md5 of it in memory: ${hashes.hashMs.toFixed(0)} ms`,
    );
    const server = await startServer(source);
    const files = { server, out: path.join(dir, 'curl.out'), part: path.join(dir, 'orator.part'), hashes };
    try {
      // warm: the server's ETag, the page cache, this process's fetch and hashing
      await curl(server.url, files.out);
      await orator(server.url, files.part, { algorithm: 'sha256', hex: hashes.sha256 });
      await rm(files.part);
      report(await downloadRounds(files), await resumeRounds(files));
      console.log(`load at the end: ${load()}`);
    } finally {
      server.stop();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

await main();
