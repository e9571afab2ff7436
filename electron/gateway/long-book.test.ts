/**
 * A book of over two hours, the length at which M4B export used to fail ("Maximum call stack size
 * exceeded" at 99 %, one function argument per AAC frame): Debian's licences as the chapters of a
 * Word manuscript made by pandoc, rendered by the embedded eSpeak NG, exported as M4B and read back
 * by FFmpeg.
 * The one test of the suite that synthesizes hours: 18 s of rendering and 247 s of export for
 * 2 h 15 min of speech on a 2-core machine at load 7–9 (docs/audiobook.md); 24 hours are built by
 * construction elsewhere (electron/audio/audiobook-day.test.ts).
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Export, Job, Project, RenderResult } from '../contract';
import { ffmpegDecode, ffmpegLoudness, ffprobe } from '../testing/ffprobe';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';

const PROJECTS = '/api/v1/tts/projects';
// MPL-2.0 is left out: pandoc reads its underlined section titles as headings of their own
const LICENCES = ['GPL-3', 'LGPL-2.1', 'GPL-2', 'GFDL-1.3', 'Apache-2.0', 'MPL-1.1', 'Artistic', 'CC0-1.0'];
/** eSpeak NG speaks them at about 0.056 s a character, and pandoc keeps 96 % of the Markdown: about 2 h 10 min. */
const CHARACTERS = 145_000;
const TWO_HOURS = 7200;
// the smallest PNG: its signature is enough to tell it from a JPEG
const COVER = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64');

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

/**
 * The licences as the chapters of a Word document made by pandoc, cut at a paragraph so that the
 * Markdown is CHARACTERS long.
 */
function manuscript(): { docx: Buffer; titles: string[] } {
  const titles: string[] = [];
  let markdown = '';
  for (const name of LICENCES) {
    if (markdown.length >= CHARACTERS) break;
    titles.push(`Chapter ${titles.length + 1}: ${name}`);
    markdown += `# ${titles.at(-1)}\n\n${readFileSync(path.join('/usr/share/common-licenses', name), 'utf8')}\n\n`;
  }
  markdown = markdown.slice(0, markdown.indexOf('\n\n', CHARACTERS));
  return { docx: execFileSync('pandoc', ['-f', 'markdown', '-t', 'docx'], { input: markdown, maxBuffer: 2 ** 26 }), titles };
}

async function json<T>(response: Response, status = 200): Promise<T> {
  expect(response.status, await response.clone().text()).toBe(status);
  return (await response.json()) as T;
}

describe('a book of over two hours', () => {
  it('renders with eSpeak NG and exports as an M4B whose chapters, packets, duration and loudness FFmpeg reads', async () => {
    const { docx, titles } = manuscript();
    const created = await gateway.post(PROJECTS, {
      voice: 'espeak-ng:en-us',
      title: 'The Licences',
      manuscript: { name: 'licences.docx', data: docx.toString('base64') },
    });
    const project = await json<Project>(created, 201);
    expect(project.chapters.map((c) => c.title)).toEqual(titles);
    const characters = project.chapters.reduce((sum, c) => sum + c.characters, 0);
    expect(characters).toBeGreaterThan(CHARACTERS * 0.9);

    let started = Date.now();
    const render = await json<RenderResult>(await gateway.post(`${PROJECTS}/${project.project_id}/render`, {}));
    let speech = 0;
    for (const { job_id } of render.queued) {
      expect((await waitForJob(gateway, job_id, 1_800_000)).status).toBe('done');
      speech += (await json<Job>(await gateway.api(`/api/v1/tts/jobs/${job_id}`))).audio!.duration_s;
    }
    console.log(
      `rendered ${characters} characters in ${titles.length} chapters, ${(speech / 60).toFixed(1)} min of speech, in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    expect(speech).toBeGreaterThan(TWO_HOURS);

    started = Date.now();
    const accepted = await json<{ poll: string }>(
      await gateway.post(`${PROJECTS}/${project.project_id}/export`, { format: 'm4b', cover: COVER }),
      202,
    );
    let view: Export;
    do {
      await new Promise((resolve) => setTimeout(resolve, 1000));
      view = await json<Export>(await gateway.api(accepted.poll));
    } while (view.status === 'running');
    expect(view.status, JSON.stringify(view.error)).toBe('done');
    console.log(
      `exported ${view.file!.duration_s} s as M4B (${view.file!.bytes} bytes) in ${((Date.now() - started) / 1000).toFixed(0)} s`,
    );
    const file = path.join(gateway.dataDir, 'book.m4b');
    await writeFile(file, new Uint8Array(await (await gateway.api(view.file!.url)).arrayBuffer()));

    const probe = await ffprobe(file, { countPackets: true });
    const audio = probe.streams.find((s) => s.codec_type === 'audio')!;
    expect([audio.codec_name, audio.sample_rate]).toEqual(['aac', '22050']);
    expect(Math.abs(Number(audio.duration) - view.file!.duration_s)).toBeLessThan(0.05);
    // every frame of the book, the encoder's priming and padding frames included
    const frames = Number(audio.nb_read_packets);
    expect(frames).toBeGreaterThan(150_000);
    expect(frames - (view.file!.duration_s * 22_050) / 1024).toBeGreaterThanOrEqual(1);
    expect(frames - (view.file!.duration_s * 22_050) / 1024).toBeLessThan(4);
    expect(probe.chapters.map((c) => c.tags?.title)).toEqual(titles);
    probe.chapters.forEach((c, i) => expect(Math.abs(Number(c.start_time) - view.chapters[i]!.start_s)).toBeLessThan(0.002));
    expect(probe.format.tags?.title).toBe('The Licences');

    const loudness = await ffmpegLoudness(file);
    console.log(`FFmpeg's meter: ${JSON.stringify(loudness)}; the export's: ${JSON.stringify(view.loudness)}`);
    expect(Math.abs(loudness.integratedLufs - -18)).toBeLessThanOrEqual(1);
    expect(loudness.truePeakDbtp).toBeLessThan(-3);
    // the last frames are where the sample table says: the book's end decodes to its last words
    const end = await ffmpegDecode(file, view.file!.duration_s - 10, 10);
    expect(Math.abs(end.samples.length / end.sampleRate - 10)).toBeLessThan(0.1);
    expect(end.samples.some((s) => Math.abs(s) > 3000)).toBe(true);
  }, 3_600_000);
});
