/**
 * `npm run bench:project`: how a book renders as a narrator listens (issue 34, point 6), on a
 * gateway in this process with the embedded eSpeak NG and the machine's engine threads.
 * 1. A book of BENCH_CHAPTERS chapters of BENCH_CHAPTER_CHARS characters, its sixth chapter two
 *    chunks long: when the first chapter is ready to play, when the last, and for each chapter
 *    the time from its last chunk synthesized to its status "done".
 * 2. A one-chapter project rendered while that book renders: the same lag, for it.
 * The project is read every 50 ms, so times are good to about that.
 * 3. The render cache's figures (bench/render-cache.ts): a first render against plain jobs, a
 *    lexicon fix in a book of BENCH_FIX_WORDS words (150,000) touching BENCH_K sentences (3),
 *    the disk per hour of cached audio.
 * BENCH_PART=order runs 1 and 2 alone, BENCH_PART=cache 3 alone.
 */
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { licenceText } from '../testing/prose';
import type { Project } from '../contract';
import { firstRenderPairs, lexiconFix, type CacheBenchOptions } from './bench/render-cache';

const CHAPTERS = Number(process.env.BENCH_CHAPTERS ?? 8);
const CHAPTER_CHARS = Number(process.env.BENCH_CHAPTER_CHARS ?? 6_000);
const SHORT_CHAPTER = 5;
const VOICE = 'espeak-ng:en-us';
const POLL_MS = 50;

function book(): string {
  const text = licenceText(CHAPTERS * CHAPTER_CHARS).replace(/^#+/gm, '');
  return Array.from({ length: CHAPTERS }, (_, i) => {
    const size = i === SHORT_CHAPTER ? 700 : CHAPTER_CHARS;
    return `## Chapter ${i + 1}\n\n${text.slice(i * CHAPTER_CHARS, i * CHAPTER_CHARS + size)}\n`;
  }).join('\n');
}

async function create(gateway: TestGateway, name: string, text: string): Promise<Project> {
  const response = await gateway.post('/api/v1/tts/projects', { voice: VOICE, manuscript: { name, text } });
  if (response.status !== 201) throw new Error(`create: ${response.status} ${await response.text()}`);
  return (await response.json()) as Project;
}

interface Seen {
  /** ms from the render's start when every chunk was synthesized, and when the chapter was done. */
  chunksDone?: number;
  done?: number;
}

/** Follows projects until every chapter is done: what was seen of each chapter, by project. */
async function follow(gateway: TestGateway, ids: string[], started: number): Promise<Map<string, Seen[]>> {
  const seen = new Map(ids.map((id) => [id, [] as Seen[]]));
  for (;;) {
    let pending = false;
    for (const id of ids) {
      const project = (await (await gateway.api(`/api/v1/tts/projects/${id}`)).json()) as Project;
      const at = performance.now() - started;
      for (const chapter of project.chapters) {
        const s = (seen.get(id)![chapter.index] ??= {});
        const { done, total } = chapter.progress;
        if (s.chunksDone === undefined && total > 0 && done === total) s.chunksDone = at;
        if (s.done === undefined && chapter.status === 'done') s.done = s.chunksDone === undefined ? (s.chunksDone = at) : at;
        if (chapter.status !== 'done') pending = true;
      }
    }
    if (!pending) return seen;
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

const s = (ms: number | undefined) => (ms === undefined ? '?' : `${(ms / 1000).toFixed(1)} s`);

async function renderOrder(): Promise<void> {
  const gateway = await startTestGateway({ maxTextLength: 2_000_000 });
  try {
    const big = await create(gateway, 'book.md', book());
    const small = await create(gateway, 'note.md', `## A Note\n\n${licenceText(1_400).slice(700)}\n`);
    const started = performance.now();
    await gateway.post(`/api/v1/tts/projects/${big.project_id}/render`, {});
    // the small project comes a little later, as a second client's would
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    await gateway.post(`/api/v1/tts/projects/${small.project_id}/render`, {});
    const seen = await follow(gateway, [big.project_id, small.project_id], started);
    const chapters = seen.get(big.project_id)!;
    console.log(`book: ${CHAPTERS} chapters of ${CHAPTER_CHARS} characters (chapter ${SHORT_CHAPTER + 1}: 700) with eSpeak NG`);
    for (const [i, c] of chapters.entries()) {
      console.log(`  chapter ${i + 1}: chunks done ${s(c.chunksDone)}, done ${s(c.done)}, lag ${s(c.done! - c.chunksDone!)}`);
    }
    const first = Math.min(...chapters.map((c) => c.done!));
    console.log(
      `first chapter ready: ${s(chapters[0]!.done)} (any chapter: ${s(first)}); book ready: ${s(Math.max(...chapters.map((c) => c.done!)))}`,
    );
    const note = seen.get(small.project_id)![0]!;
    console.log(
      `one-chapter project rendered 2 s later: chunks done ${s(note.chunksDone)}, done ${s(note.done)}, lag ${s(note.done! - note.chunksDone!)}`,
    );
  } finally {
    await gateway.stop();
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const MB = 1024 * 1024;

async function renderCache(): Promise<void> {
  const options: CacheBenchOptions = {
    overheadWords: Number(process.env.BENCH_OVERHEAD_WORDS ?? 15_000),
    pairs: Number(process.env.BENCH_PAIRS ?? 3),
    fixWords: Number(process.env.BENCH_FIX_WORDS ?? 150_000),
    k: Number(process.env.BENCH_K ?? 3),
  };
  console.log(`render cache: first render of ${options.overheadWords} words, as plain jobs and as a project, ${options.pairs} pairs`);
  const pairs = await firstRenderPairs(options);
  const total = (timed: { ms: number; cpuMs: number }[], what: 'ms' | 'cpuMs') => timed.reduce((sum, t) => sum + t[what], 0);
  for (const what of ['ms', 'cpuMs'] as const) {
    const ratios = pairs.project.map((made, i) => made[what] / pairs.jobs[i]![what]);
    const overall = total(pairs.project, what) / total(pairs.jobs, what);
    console.log(
      `  project / plain jobs, ${what === 'ms' ? 'wall' : 'CPU'}: median ${median(ratios).toFixed(3)}×, all pairs together ` +
        `${overall.toFixed(3)}× (${ratios.map((r) => r.toFixed(3)).join(', ')}), ${pairs.sentences} sentences (goal 1.05×)`,
    );
  }
  console.log(`lexicon fix of a name in ${options.k} sentences of a book of ${options.fixWords} words`);
  const fix = await lexiconFix(options);
  const perSentence = fix.firstMs / fix.sentences;
  const goal = options.k * perSentence + 2000;
  const hour = (fix.stats.bytes / fix.stats.audio_seconds) * 3600;
  const rows = [
    ['first render', `${s(fix.firstMs)} for ${fix.sentences} sentences in ${fix.chapters} chapters (${s(perSentence)} a sentence)`],
    [
      'the fix',
      `${s(fix.fixMs)}: ${fix.fixSynthesized} sentences synthesized, ${fix.chaptersQueued} chapters queued (goal ${s(goal)}: ${fix.fixMs <= goal ? 'met' : 'not met'})`,
    ],
    ['audio of the book', `${(fix.audioSeconds / 3600).toFixed(2)} h`],
    [
      'the cache',
      `${fix.stats.entries} sentences, ${(fix.stats.bytes / MB).toFixed(1)} MiB, ${(fix.stats.audio_seconds / 3600).toFixed(2)} h: ${(hour / MB).toFixed(1)} MiB per hour`,
    ],
  ];
  for (const [what, figure] of rows) console.log(`  ${what}: ${figure}`);
}

const part = process.env.BENCH_PART;
if (part !== 'cache') await renderOrder();
if (part !== 'order') await renderCache();
