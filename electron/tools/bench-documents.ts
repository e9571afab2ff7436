/**
 * `npm run bench:documents`: issue 29's hostile documents, and a real book, sent to a gateway of
 * its own process, one fresh gateway per file so that each peak is its own. For each: the answer
 * (status, code, seconds), the longest a concurrent request (GET /jobs every 50 ms on a fresh
 * connection, testing/stall.ts) waited while it was read (the stall), the gateway's peak resident
 * set (the kernel's VmHWM) and what it held 2 s after. The CPU time of its main thread meanwhile
 * bounds the stall an idle machine would see, whatever the load on this one. Run from another checkout's folder to measure its build (`cd ../old && npx tsx
 * …/bench-documents.ts`): the gateway is `dist/serve.mjs` of the working folder.
 *
 * `--only <name,…>` runs some cases; `--large` adds the slow ones (a 30 MB Word file of empty
 * paragraphs, a 4 MB lying zip), which took the old gateway minutes and gigabytes.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { LEXICON_LIMITS, PROJECTS_PATH, TTS_ROOT } from '../contract';
import { bookMarkdown, pandoc } from '../testing/book';
import * as hostile from '../testing/hostile-documents';
import { exited, spawnGateway } from '../testing/process';
import { send } from '../testing/raw-http';
import { waitsDuring } from '../testing/stall';
import { RssSampler } from './bench/gateway-probes';

interface Case {
  name: string;
  large?: true;
  /** The route and JSON body to send. */
  request: () => Promise<{ route: string; body: unknown }>;
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const manuscript = (name: string, file: { text: string } | { data: string }) => ({
  route: PROJECTS_PATH,
  body: { manuscript: { name, ...file } },
});
const binary = (name: string, make: () => Uint8Array | Promise<Uint8Array>) => async () => manuscript(name, { data: base64(await make()) });
const lexicon = (format: 'csv' | 'pls', data: string) => ({ route: `${TTS_ROOT}/lexicon/import`, body: { format, data, language: 'en' } });

const CASES: Case[] = [
  { name: 'docx: 8 MB of <w:p/>', request: binary('empty.docx', () => hostile.emptyParagraphsDocx(8)) },
  { name: 'docx: 30 MB of <w:p/>', large: true, request: binary('empty.docx', () => hostile.emptyParagraphsDocx(30)) },
  { name: 'docx: lying zip, 1 GB inflated', request: binary('lying.docx', () => hostile.lyingDocx(1024)) },
  { name: 'docx: lying zip, 4 GB inflated', large: true, request: binary('lying.docx', () => hostile.lyingDocx(4000)) },
  { name: 'docx: nested 50,000 deep', request: binary('nested.docx', () => hostile.nestedDocx(50_000)) },
  { name: 'md: heading, 3,000 spaces', request: async () => manuscript('h.md', { text: hostile.headingMarkdown(3_000) }) },
  { name: 'md: 100,000 chars of "[a]("', request: async () => manuscript('l.md', { text: hostile.linksMarkdown(100_000) }) },
  { name: 'epub: 500 KB of "<rootfile "', request: binary('r.epub', () => hostile.rootfileEpub(500_000)) },
  { name: 'epub: 300 KB of "<body>"', request: binary('b.epub', () => hostile.bodyEpub(300_000)) },
  { name: 'epub: 150 KB of "<"', request: binary('t.epub', () => hostile.tagsEpub(150_000)) },
  { name: 'epub: href %zz', request: binary('z.epub', () => hostile.badHrefEpub()) },
  { name: 'csv: 840,000 rows (23.5 MB)', request: async () => lexicon('csv', hostile.rowsCsv(840_000)) },
  { name: 'pls: 5.9M empty elements', request: async () => lexicon('pls', hostile.emptyElementsPls(5_900_000)) },
  { name: 'pls: DOCTYPE of laughs', request: async () => lexicon('pls', hostile.laughsPls()) },
  {
    name: `csv: ${LEXICON_LIMITS.entries} rows (the limit)`,
    request: async () => lexicon('csv', hostile.rowsCsv(LEXICON_LIMITS.entries)),
  },
  { name: 'book: 150,000 words, .md', request: async () => manuscript('book.md', { text: bookMarkdown() }) },
  {
    name: 'book: 150,000 words, .docx (pandoc)',
    request: async () => manuscript('book.docx', { data: base64(pandoc(bookMarkdown(), 'docx')) }),
  },
  {
    name: 'book: 150,000 words, .epub (pandoc)',
    request: async () => manuscript('book.epub', { data: base64(pandoc(bookMarkdown(), 'epub')) }),
  },
];

const CASE_LIMIT_MS = 600_000;
const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;
const seconds = (ms: number) => `${(ms / 1000).toFixed(ms < 10_000 ? 2 : 1)} s`;

async function run(entry: Case): Promise<string[]> {
  const { route, body } = await entry.request();
  const payload = JSON.stringify(body);
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-bench-documents-'));
  const gateway = await spawnGateway(['--data-dir', dataDir]);
  const pid = gateway.child.pid!;
  const client = { port: Number(new URL(gateway.url).port), apiKey: gateway.apiKey, pid };
  try {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const idle = RssSampler.bytes(pid);
    const started = performance.now();
    const request = {
      method: 'POST',
      path: route,
      headers: { authorization: `Bearer ${gateway.apiKey}`, 'content-type': 'application/json' },
      body: payload,
    };
    const [answer, waits] = await waitsDuring(
      client,
      send(client.port, request, CASE_LIMIT_MS).catch((error: Error) => ({ status: 0, body: Buffer.from(error.message) })),
    );
    const ms = performance.now() - started;
    const stall = `${seconds(waits.longestMs)}${waits.failed ? ` (${waits.failed} failed)` : ''}`;
    const loop = waits.loopCpuMs === undefined ? '—' : seconds(waits.loopCpuMs);
    const alive = gateway.child.exitCode === null && gateway.child.signalCode === null;
    if (!alive || answer.status === 0) {
      await new Promise((resolve) => setTimeout(resolve, 500));
      const fatal = /FATAL ERROR[^\n]*/.exec(gateway.output())?.[0];
      const what = fatal ? `gateway died: ${fatal}` : `no answer: ${answer.body.toString().slice(0, 80)}`;
      const peak = alive ? mb(RssSampler.kernelPeak(pid)) : '—';
      return [entry.name, mb(payload.length), what, seconds(ms), stall, loop, peak, alive ? mb(RssSampler.bytes(pid)) : '—', mb(idle)];
    }
    const text = answer.body.toString();
    const code = answer.status >= 400 ? ((JSON.parse(text) as { error?: { code?: string } }).error?.code ?? '') : '';
    const peak = RssSampler.kernelPeak(pid);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const held = RssSampler.bytes(pid);
    return [entry.name, mb(payload.length), `${answer.status} ${code}`.trim(), seconds(ms), stall, loop, mb(peak), mb(held), mb(idle)];
  } finally {
    gateway.child.kill('SIGKILL');
    await exited(gateway.child);
    await rm(dataDir, { recursive: true, force: true });
  }
}

const args = process.argv.slice(2);
const only = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : undefined;
const chosen = CASES.filter((c) => (only ? only.some((o) => c.name.includes(o)) : !c.large || args.includes('--large')));
console.log(
  `Gateway: ${path.resolve('dist/serve.mjs')}; load average ${os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
console.log(
  '| file | body | answer | answered in | longest concurrent request | event loop CPU meanwhile | peak RSS | RSS 2 s after | RSS idle |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const entry of chosen) console.log(`| ${(await run(entry)).join(' | ')} |`);
