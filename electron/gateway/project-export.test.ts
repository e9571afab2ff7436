/**
 * A project of 500 chapters (the most a project holds) rendered with the embedded eSpeak NG and
 * exported with every option (cover, loudness, true peak, room tone) as MP3 and ZIP, and some of
 * its jobs from the Studio's export as M4B; read back by FFmpeg, Info-ZIP and music-metadata. And
 * the disk a render and an export take, told before either and refused when it does not fit.
 */
import { execFile } from 'node:child_process';
import { statfs, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseFile } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  EXPORT_DEFAULT_KBPS,
  estimateExportBytes,
  exportSeconds,
  PROJECT_LIMITS,
  type Export,
  type Project,
  type ProjectDisk,
  type RenderResult,
} from '../contract';
import { ffmpegDecode, ffmpegLoudness, ffprobe } from '../testing/ffprobe';
import { startTestGateway, waitForExport, waitForJob, type TestGateway } from '../testing/gateway';

const run = promisify(execFile);
const PROJECTS = '/api/v1/tts/projects';
const VOICE = 'espeak-ng:en-us';
const COUNT = PROJECT_LIMITS.chapters;
const titleOf = (i: number) => `${i + 1}: Über`;
// the smallest PNG: its signature is enough to tell it from a JPEG
const COVER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64');

let gateway: TestGateway;
let project: Project;
let before: ProjectDisk;

const send = async (method: string, route: string, body?: unknown) =>
  gateway.api(route, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
const json = async <T>(response: Response, status = 200): Promise<T> => {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
};

beforeAll(async () => {
  gateway = await startTestGateway();
  const manuscript = Array.from({ length: COUNT }, (_, i) => `# ${titleOf(i)}\n\nYes.`).join('\n\n');
  project = await json<Project>(
    await send('POST', PROJECTS, {
      voice: VOICE,
      title: 'The Ledger',
      author: 'A. Keeper',
      manuscript: { name: 'ledger.md', text: manuscript },
    }),
    201,
  );
  expect(project.chapters).toHaveLength(COUNT);
  before = await json<ProjectDisk>(await send('GET', `${PROJECTS}/${project.project_id}/disk`));
  const started = Date.now();
  const result = await json<RenderResult>(await send('POST', `${PROJECTS}/${project.project_id}/render`));
  expect(result.queued).toHaveLength(COUNT);
  for (const { job_id } of result.queued) expect((await waitForJob(gateway, job_id, 600_000)).status).toBe('done');
  console.log(`rendered ${COUNT} chapters in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}, 900_000);
afterAll(() => gateway.stop());

async function finished(accepted: Response): Promise<{ view: Export; file: string }> {
  const { poll } = await json<{ poll: string }>(accepted, 202);
  const started = Date.now();
  const view = await waitForExport(gateway, poll, 900_000);
  expect(view.status, JSON.stringify(view.error)).toBe('done');
  console.log(`export ${view.format}: ${view.file!.duration_s} s of audio, ${view.chapters.length} chapters in ${Date.now() - started} ms`);
  const file = path.join(gateway.dataDir, `download-${view.export_id}.${view.format}`);
  await writeFile(file, new Uint8Array(await (await gateway.api(view.file!.url)).arrayBuffer()));
  return { view, file };
}

const titles = Array.from({ length: COUNT }, (_, i) => titleOf(i));

describe('a project of 500 chapters', () => {
  it('estimates its disk before the render, and the book as measured after', async () => {
    expect(before.render.chapters).toBe(COUNT);
    expect(before.free_bytes).toBeGreaterThan(0);
    const after = await json<ProjectDisk>(await send('GET', `${PROJECTS}/${project.project_id}/disk`));
    expect(after.render).toEqual({ chapters: 0, bytes: 0 });
    // estimated from the text before, measured after: the same book within a factor of two
    console.log(`book: estimated ${before.book_seconds} s, measured ${after.book_seconds} s`);
    expect(after.book_seconds / before.book_seconds).toBeGreaterThan(0.5);
    expect(after.book_seconds / before.book_seconds).toBeLessThan(2);
    // WAV at 22.05 kHz: 44,100 bytes a second; the render's sum of chapters rounds each
    expect(Math.abs(before.render.bytes - before.formats.wav)).toBeLessThanOrEqual(COUNT);
    expect(Math.abs(after.formats.wav - after.book_seconds * 44_100)).toBeLessThan(COUNT * 44_100 * 0.1);
    expect(after.formats.mp3).toBeGreaterThan(after.formats.wav); // a compressed chapter keeps its WAV too
  });

  it('exports as an MP3 with every option: 500 chapters titled as the project’s, cover, loudness, true peak, room tone', async () => {
    const body = {
      format: 'mp3',
      cover: COVER,
      loudness_target_lufs: -20,
      true_peak_dbtp: -2,
      room_tone_head_ms: 1000,
      room_tone_tail_ms: 1000,
    };
    const { view, file } = await finished(await send('POST', `${PROJECTS}/${project.project_id}/export`, body));
    expect(view.chapters.map((c) => c.title)).toEqual(titles);
    // the length the studio works out from the disk estimate before an export is the export's
    const disk = await json<ProjectDisk>(await send('GET', `${PROJECTS}/${project.project_id}/disk`));
    expect(Math.abs(exportSeconds(disk.book_seconds, COUNT, 1000) - view.file!.duration_s)).toBeLessThan(1);
    expect(view.file!.bytes).toBeLessThan(estimateExportBytes(view.file!.duration_s, EXPORT_DEFAULT_KBPS.mp3));

    const probe = await ffprobe(file);
    expect(probe.chapters.map((c) => c.tags?.title)).toEqual(titles);
    // LAME's delay moves the audio, not the marks: each mark is where the export says
    probe.chapters.forEach((c, i) => expect(Math.abs(Number(c.start_time) - view.chapters[i]!.start_s)).toBeLessThan(0.002));
    expect(Math.abs(Number(probe.format.duration) - view.file!.duration_s)).toBeLessThan(0.3);
    expect(probe.format.tags?.title).toBe('The Ledger');
    const { common } = await parseFile(file);
    expect([common.artist, common.picture?.[0]?.format]).toEqual(['A. Keeper', 'image/png']);

    const loudness = await ffmpegLoudness(file);
    console.log(`MP3 of 500 chapters: ${JSON.stringify(loudness)}`);
    expect(Math.abs(loudness.integratedLufs - -20)).toBeLessThanOrEqual(1);
    expect(loudness.truePeakDbtp).toBeLessThan(-2);
    // a second of room tone before the first word
    const head = await ffmpegDecode(file, 0, 1.5);
    const firstSound = head.samples.findIndex((s) => Math.abs(s) > 300) / head.sampleRate;
    expect(firstSound).toBeGreaterThan(0.95);
  }, 900_000);

  it('exports as one MP3 per chapter (ZIP), each named and tagged as its chapter', async () => {
    const { file } = await finished(await send('POST', `${PROJECTS}/${project.project_id}/export`, { format: 'zip' }));
    const utf8 = { ...process.env, LC_ALL: 'C.UTF-8' };
    const { stdout } = await run('zipinfo', ['-1', file], { maxBuffer: 16 * 1024 * 1024, env: utf8 });
    const names = stdout.trim().split('\n');
    expect(names).toHaveLength(COUNT * 3);
    const mp3s = names.filter((n) => n.endsWith('.mp3'));
    expect(mp3s).toEqual(titles.map((t, i) => `${String(i + 1).padStart(3, '0')} ${t.replace(':', '_')}.mp3`));
    const last = path.join(gateway.dataDir, 'last.mp3');
    const { stdout: bytes } = await run('unzip', ['-p', file, mp3s.at(-1)!], {
      encoding: 'buffer',
      maxBuffer: 16 * 1024 * 1024,
      env: utf8,
    });
    await writeFile(last, bytes);
    const probe = await ffprobe(last);
    expect([probe.format.tags?.title, probe.format.tags?.track, probe.format.tags?.album]).toEqual([
      titles.at(-1),
      `${COUNT}/${COUNT}`,
      'The Ledger',
    ]);
  }, 900_000);

  it('exports its jobs from the Studio as an M4B whose chapters are the chapters’ titles, not "Book: Chapter"', async () => {
    const current = await json<Project>(await send('GET', `${PROJECTS}/${project.project_id}`));
    const jobs = current.chapters.slice(0, 3).map((c) => c.job_id!);
    const job = await json<{ title: string }>(await send('GET', `/api/v1/tts/jobs/${jobs[0]}`));
    expect(job.title).toBe(`The Ledger: ${titles[0]}`); // the job list names the book
    const { view, file } = await finished(await send('POST', '/api/v1/tts/exports', { job_ids: jobs, format: 'm4b', chapters: 'jobs' }));
    expect(view.title).toBe(titles[0]); // no title given: the first chapter's
    const probe = await ffprobe(file);
    expect(probe.chapters.map((c) => c.tags?.title)).toEqual(titles.slice(0, 3));
    probe.chapters.forEach((c, i) => expect(Math.abs(Number(c.start_time) - view.chapters[i]!.start_s)).toBeLessThan(0.002));
  }, 120_000);
});

describe('the disk a render takes', () => {
  it('is refused before anything is queued when the disk cannot take it, saying how much it needs', async () => {
    const { bavail, bsize } = await statfs(os.tmpdir());
    const margin = 200 * 1024 * 1024;
    const tight = await startTestGateway({ minFreeBytes: bavail * bsize - margin });
    try {
      // 400,000 characters: up to 1.8 GB of WAV by the queue's estimate
      const text = 'The keeper counted the lanterns again. '.repeat(10_000);
      const created = await tight.post(PROJECTS, { voice: VOICE, manuscript: { name: 'long.txt', text } });
      const { project_id } = await json<Project>(created, 201);
      const disk = await json<ProjectDisk>(await tight.api(`${PROJECTS}/${project_id}/disk`));
      expect(disk.render.bytes).toBeGreaterThan(1024 ** 3);
      expect(disk.free_bytes).toBeLessThan(disk.render.bytes);
      const refused = await tight.api(`${PROJECTS}/${project_id}/render`, { method: 'POST' });
      expect(refused.status).toBe(507);
      const { error } = (await refused.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('insufficient_storage');
      expect(error.message).toMatch(/^Rendering 1 chapter as WAV needs up to \d\.\d GB of disk, and [\d.]+ [MG]B are free/);
      const after = await json<Project>(await tight.api(`${PROJECTS}/${project_id}`));
      expect(after.chapters[0]!.status).toBe('not_rendered');
    } finally {
      await tight.stop();
    }
  }, 60_000);
});
