/**
 * The document matrix (issue 29): adversarial Markdown, EPUB, Word, PLS and CSV files sent to a
 * gateway of its own process. During each, a concurrent request must be answered within a second;
 * each must get its documented answer; without the key each must get 401 before anything reads
 * it; and the gateway must stay up and under a stated memory ceiling, then still speak. Before
 * the change each of these held every client for seconds to minutes, or killed the gateway.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECTS_PATH, TTS_ROOT, type ErrorBody, type ErrorCode } from '../contract';
import { expectSpeech } from '../testing/audio';
import { BOOK_WORDS, bookDocx, bookEpub, bookMarkdown } from '../testing/book';
import * as hostile from '../testing/hostile-documents';
import { exited, spawnGateway, type GatewayProcess } from '../testing/process';
import { send } from '../testing/raw-http';
import { waitsDuring } from '../testing/stall';
import { RssSampler } from '../tools/bench/gateway-probes';

/**
 * The gateway's resident set never passes this: an idle gateway holds about 100 MB, the document
 * thread at most its 512 MB heap (DOCUMENT_LIMITS.heapMb) and a 64 MB inflation budget, and a
 * 24 MB JSON body is held as its text and its parse. Before, one 1 MB zip took the gateway to 1.1 GB.
 */
const RSS_CEILING_MB = 1024;
/** Other clients are answered within this, on an idle machine: the gateway's event loop works less meanwhile. */
const CONCURRENT_ANSWER_MS = 1000;
/** A file the thread reads until its heap or deadline (60 s) stops it, on a busy machine. */
const CASE_TIMEOUT_MS = 180_000;

interface DocumentCase {
  name: string;
  route: string;
  body: () => Promise<unknown>;
  /** The answer it must get: a status, and the error code when it is an error. */
  expected: { status: number; code?: ErrorCode | ErrorCode[] };
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const manuscript = (name: string, file: { text: string } | { data: string }) => ({ manuscript: { name, ...file } });
const project = (name: string, expected: DocumentCase['expected'], make: () => Uint8Array | Promise<Uint8Array>): DocumentCase => ({
  name: `${name} (${name.split(':')[0]})`,
  route: PROJECTS_PATH,
  body: async () => manuscript(`file.${name.split(':')[0]}`, { data: base64(await make()) }),
  expected,
});
const text = (name: string, expected: DocumentCase['expected'], make: () => string): DocumentCase => ({
  name,
  route: PROJECTS_PATH,
  body: async () => manuscript('file.md', { text: make() }),
  expected,
});
const lexicon = (name: string, format: 'csv' | 'pls', expected: DocumentCase['expected'], make: () => string): DocumentCase => ({
  name,
  route: `${TTS_ROOT}/lexicon/import`,
  body: async () => ({ format, data: make(), language: 'en' }),
  expected,
});

const TOO_LARGE = { status: 413, code: 'manuscript_too_large' as const };
const CASES: DocumentCase[] = [
  // mammoth needed 1.6 GB and 32-39 s for 8 MB of them on the event loop; 4 MB pass the thread's heap
  project('docx: 4 MB of empty paragraphs', TOO_LARGE, () => hostile.emptyParagraphsDocx(4)),
  project('docx: a zip whose 1,000-byte document inflates to 256 MB', TOO_LARGE, () => hostile.lyingDocx(256)),
  project('docx: paragraph content nested 50,000 deep', { status: 400, code: ['invalid_request', 'manuscript_too_large'] }, () =>
    hostile.nestedDocx(50_000),
  ),
  text('md: a heading whose 3,000 spaces end in a word', { status: 201 }, () => hostile.headingMarkdown(3_000)),
  text('md: a line of 100,000 characters of links without targets', { status: 201 }, () => hostile.linksMarkdown(100_000)),
  project('epub: 500 KB of "<rootfile " in its container', { status: 400, code: 'invalid_request' }, () => hostile.rootfileEpub(500_000)),
  project('epub: a chapter of 300 KB of "<body>"', { status: 400, code: 'invalid_request' }, () => hostile.bodyEpub(300_000)),
  project('epub: a chapter of 150 KB of "<"', { status: 201 }, () => hostile.tagsEpub(150_000)),
  project('epub: a manifest href of "%zz"', { status: 400, code: 'invalid_request' }, () => hostile.badHrefEpub()),
  lexicon('csv: 840,000 rows (23.5 MB)', 'csv', { status: 413, code: 'lexicon_too_large' }, () => hostile.rowsCsv(840_000)),
  lexicon('csv: one field of 20 million characters', 'csv', { status: 400, code: 'invalid_lexicon' }, () => hostile.hugeFieldCsv(20e6)),
  lexicon('pls: 5.9 million empty elements', 'pls', { status: 413, code: 'lexicon_too_large' }, () => hostile.emptyElementsPls(5.9e6)),
  lexicon('pls: a DOCTYPE of a billion laughs', 'pls', { status: 400, code: 'invalid_lexicon' }, () => hostile.laughsPls()),
  lexicon('pls: lexemes nested 100,000 deep', 'pls', { status: 400, code: 'invalid_lexicon' }, () => hostile.nestedPls(100_000)),
];

let gateway: GatewayProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-hostile-documents-'));
  gateway = await spawnGateway(['--data-dir', dataDir]);
});
afterAll(async () => {
  gateway.child.kill();
  await exited(gateway.child);
  await rm(dataDir, { recursive: true, force: true });
});

const client = () => ({ port: Number(new URL(gateway.url).port), apiKey: gateway.apiKey, pid: gateway.child.pid! });

function post(route: string, body: string, key = true) {
  const headers = { 'content-type': 'application/json', ...(key ? { authorization: `Bearer ${gateway.apiKey}` } : {}) };
  if (key) return send(client().port, { method: 'POST', path: route, headers, body }, CASE_TIMEOUT_MS);
  // without the key only the headers go, announcing the whole body: the answer must come without
  // the gateway reading any of it (writing it would race the gateway's close to an EPIPE)
  const announced = { ...headers, 'content-length': String(Buffer.byteLength(body)) };
  return send(client().port, { method: 'POST', path: route, headers: announced }, CASE_TIMEOUT_MS);
}

describe('hostile documents', () => {
  it.each(CASES)(
    '$name: the documented answer, other clients served within a second',
    { timeout: CASE_TIMEOUT_MS },
    async ({ route, body, expected }) => {
      const [answer, waits] = await waitsDuring(client(), post(route, JSON.stringify(await body())));
      expect(answer.status).toBe(expected.status);
      if (expected.code) expect([expected.code].flat()).toContain((JSON.parse(answer.body.toString()) as ErrorBody).error.code);
      expect(waits.failed).toBe(0);
      // the event loop's own CPU time meanwhile bounds the longest wait on an idle machine: a wall
      // clock would measure the machine's load (2.6 s for a 0.5 s loop, CI beside other test files)
      expect(waits.loopCpuMs).toBeLessThan(CONCURRENT_ANSWER_MS);
    },
  );

  it('answers each of them 401 without the key, before anything reads it', async () => {
    for (const { name, route, body } of CASES) {
      const payload = JSON.stringify(await body());
      const started = performance.now();
      const answer = await post(route, payload, false);
      expect([name, answer.status]).toEqual([name, 401]);
      expect(performance.now() - started).toBeLessThan(CONCURRENT_ANSWER_MS);
    }
  });

  it('stayed up and under its memory ceiling, and still speaks', async () => {
    expect(gateway.child.exitCode).toBeNull();
    expect(RssSampler.kernelPeak(gateway.child.pid!) / 1024 / 1024).toBeLessThan(RSS_CEILING_MB);
    const response = await gateway.api(`${TTS_ROOT}/synthesize`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'The gateway read every hostile file and still speaks.' }),
    });
    expect(response.status).toBe(200);
    expectSpeech(Buffer.from(await response.arrayBuffer()), { minSeconds: 1 });
  });
});

describe('a real manuscript', () => {
  const book = bookMarkdown();
  it.each([
    ['Markdown', { name: 'book.md', text: book }],
    ['Word', { name: 'book.docx', data: base64(bookDocx(book)) }],
    ['EPUB', { name: 'book.epub', data: base64(bookEpub(book)) }],
  ])(
    `of ${BOOK_WORDS.toLocaleString('en-US')} words imports from %s in its 30 chapters, other clients served throughout`,
    async (format, file) => {
      const [answer, waits] = await waitsDuring(client(), post(PROJECTS_PATH, JSON.stringify({ manuscript: file })));
      expect(answer.status).toBe(201);
      const project = JSON.parse(answer.body.toString()) as { chapter_count: number; project_id: string };
      const { chapters } = (await (await gateway.api(`${PROJECTS_PATH}/${project.project_id}`)).json()) as {
        chapters: { title: string; text: string; front_matter: boolean }[];
      };
      expect(chapters.filter((c) => !c.front_matter).map((c) => c.title)).toEqual(Array.from({ length: 30 }, (_, i) => `Chapter ${i + 1}`));
      // the book's title over its chapters is its title page, never a chapter named after the file
      expect(chapters.filter((c) => c.front_matter).map((c) => c.title)).toEqual(format === 'EPUB' ? [] : ['Title page']);
      const words = chapters.reduce((sum, c) => sum + c.text.split(/\s+/).length, 0);
      expect(words).toBeGreaterThan(BOOK_WORDS * 0.98);
      expect(waits.failed).toBe(0);
      // the event loop's own CPU time meanwhile bounds the longest wait on an idle machine: a wall
      // clock would measure the machine's load (2.6 s for a 0.5 s loop, CI beside other test files)
      expect(waits.loopCpuMs).toBeLessThan(CONCURRENT_ANSWER_MS);
    },
  );
});
