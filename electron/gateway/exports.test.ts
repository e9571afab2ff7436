import { unzipSync } from 'fflate';
import { existsSync } from 'node:fs';
import { readdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { measureLoudness } from '../audio/loudness';
import { EXPORT_JOB_GAP_MS, EXPORT_LIMITS, type Export, type JobTimings } from '../contract';
import { decodeIndependently } from '../testing/decoders';
import { startTestGateway, waitForExport, waitForJob, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
const HEAD_S = 0.75; // the default room tone
const GAP_S = EXPORT_JOB_GAP_MS / 1000;

// a Markdown heading, a "Chapter" paragraph, and a second job without a heading
const FIRST =
  '# The Beginning\n\nIt was a quiet morning. The birds sang softly in the old trees.\n\nChapter 2: The Storm\n\nThe wind rose over the hills. Rain fell hard on the roof all night.';
const SECOND = 'The second part starts here. It is short, and it ends well.';
let first: { id: string; timings: JobTimings };
let second: { id: string; timings: JobTimings };

async function finishedJob(text: string, title?: string) {
  const response = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job' });
  const { job_id: id } = (await response.json()) as { job_id: string };
  expect((await waitForJob(gateway, id)).status).toBe('done');
  if (title)
    await gateway.api(`/api/v1/tts/jobs/${id}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ title }),
    });
  const timings = (await (await gateway.api(`/api/v1/tts/jobs/${id}/timings`)).json()) as JobTimings;
  return { id, timings };
}

beforeAll(async () => {
  gateway = await startTestGateway();
  first = await finishedJob(FIRST);
  second = await finishedJob(SECOND, 'Part Two');
}, 120_000);
afterAll(async () => {
  await gateway.stop();
  await rm(gateway.dataDir, { recursive: true, force: true }); // after a restart the data dir is the test's
});

async function exported(body: Record<string, unknown>): Promise<{ view: Export; bytes: Uint8Array }> {
  const response = await gateway.post('/api/v1/tts/exports', body);
  expect(response.status, await response.clone().text()).toBe(202);
  const { poll } = (await response.json()) as { poll: string };
  expect(response.headers.get('location')).toBe(poll);
  const started = Date.now();
  const view = await waitForExport(gateway, poll);
  expect(view.status, JSON.stringify(view.error)).toBe('done');
  console.log(
    `export ${String(body.format)}: ${view.file!.duration_s} s of audio in ${Date.now() - started} ms, loudness ${JSON.stringify(view.loudness)}`,
  );
  const file = await gateway.api(view.file!.url);
  expect(file.status).toBe(200);
  expect(file.headers.get('content-disposition')).toMatch(/^attachment; filename="/);
  return { view, bytes: new Uint8Array(await file.arrayBuffer()) };
}

/** Where the chapters should start: the book's first at 0, the heading of the first job, the second job. */
function expectedChapters(): { title: string; start: number }[] {
  const storm = first.timings.sentences.find((s) => s.text.startsWith('Chapter 2'))!;
  return [
    { title: 'The Beginning', start: 0 },
    { title: 'Chapter 2: The Storm', start: HEAD_S + storm.start_s },
    { title: 'Part Two', start: HEAD_S + first.timings.duration_s + GAP_S },
  ];
}

function expectLoudness(samples: Int16Array, sampleRate: number, target: number, ceiling: number) {
  const report = measureLoudness(samples, sampleRate);
  console.log(
    `decoded: ${report.integratedLufs.toFixed(2)} LUFS, ${report.truePeakDbtp.toFixed(2)} dBTP (target ${target}, ceiling ${ceiling})`,
  );
  expect(Math.abs(report.integratedLufs - target)).toBeLessThanOrEqual(1);
  expect(report.truePeakDbtp).toBeLessThan(ceiling);
}

const CUE = /^(\d\d):(\d\d):(\d\d)[.,](\d{3}) --> (\d\d):(\d\d):(\d\d)[.,](\d{3})$/m;
function cueTimes(text: string): [number, number][] {
  return text
    .split(/\n\n+/)
    .map((block) => CUE.exec(block))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => {
      const n = m.slice(1).map(Number);
      return [n[0]! * 3600 + n[1]! * 60 + n[2]! + n[3]! / 1000, n[4]! * 3600 + n[5]! * 60 + n[6]! + n[7]! / 1000];
    });
}

function expectCuesMatch(cues: [number, number][], timings: JobTimings, offset: number, duration: number) {
  expect(cues.length).toBe(timings.sentences.length);
  let previousEnd = 0;
  cues.forEach(([start, end], i) => {
    expect(start).toBeGreaterThanOrEqual(previousEnd);
    expect(end).toBeGreaterThan(start);
    expect(end).toBeLessThanOrEqual(duration);
    expect(Math.abs(start - (offset + timings.sentences[i]!.start_s))).toBeLessThan(0.05);
    expect(Math.abs(end - Math.min(duration, offset + timings.sentences[i]!.end_s))).toBeLessThan(0.05);
    previousEnd = end;
  });
}

describe('audiobook export', () => {
  it('makes an M4B with chapter marks at the sentences, tags, a cover and loudness at the target', async () => {
    const cover = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0]).toString('base64');
    const { view, bytes } = await exported({
      job_ids: [first.id, second.id],
      format: 'm4b',
      title: 'A Small Book',
      author: 'Orator Tests',
      cover,
    });
    const { format, common } = await parseBuffer(bytes, { mimeType: 'audio/mp4' }, { includeChapters: true });
    const expected = expectedChapters();
    expect(format.chapters?.map((c) => c.title)).toEqual(expected.map((c) => c.title));
    format.chapters!.forEach((c, i) => expect(Math.abs(c.start / c.timeScale! - expected[i]!.start)).toBeLessThan(0.05));
    expect(view.chapters.map((c) => c.title)).toEqual(expected.map((c) => c.title));
    expect([common.title, common.artist]).toEqual(['A Small Book', 'Orator Tests']);
    expect(common.picture?.[0]?.format).toBe('image/png');

    const decoded = await decodeIndependently('m4a', bytes);
    expect(decoded.sampleRate).toBe(22_050);
    // an M4B's gap between jobs grows by less than an AAC frame, so that each job fills whole frames (segments.ts)
    const expectedDuration = HEAD_S + first.timings.duration_s + GAP_S + second.timings.duration_s + HEAD_S;
    expect(view.file!.duration_s - expectedDuration).toBeGreaterThan(-0.01);
    expect(view.file!.duration_s - expectedDuration).toBeLessThan(1024 / 22_050 + 0.01);
    expectLoudness(decoded.samples, decoded.samples.length / decoded.seconds, -18, -3);

    // the book's captions: the first job's sentences after the room tone, the second's after the gap
    const vtt = await (await gateway.api(`/api/v1/tts/exports/${view.export_id}/subtitles?format=vtt`)).text();
    expect(vtt.startsWith('WEBVTT\n')).toBe(true);
    const cues = cueTimes(vtt);
    const split = first.timings.sentences.length;
    expectCuesMatch(cues.slice(0, split), first.timings, HEAD_S, expectedDuration);
    expectCuesMatch(cues.slice(split), second.timings, expected[2]!.start, expectedDuration);
  }, 120_000);

  it('makes an MP3 with ID3 chapters at broadcast loudness', async () => {
    const { bytes } = await exported({ job_ids: [first.id, second.id], format: 'mp3', loudness_target_lufs: -23, room_tone_head_ms: 1000 });
    const { format, common } = await parseBuffer(bytes, { mimeType: 'audio/mpeg' }, { includeChapters: true });
    const expected = expectedChapters().map((c, i) => ({ ...c, start: i === 0 ? 0 : c.start + 0.25 }));
    expect(format.chapters?.map((c) => c.title)).toEqual(expected.map((c) => c.title));
    format.chapters!.forEach((c, i) => expect(Math.abs(c.start - expected[i]!.start)).toBeLessThan(0.05));
    expect(common.title).toBe('The Beginning'); // no title given: the first chapter's
    const decoded = await decodeIndependently('mp3', bytes);
    expectLoudness(decoded.samples, decoded.sampleRate, -23, -3);
  }, 120_000);

  it('makes a ZIP of one MP3 and its subtitles per chapter', async () => {
    const { bytes } = await exported({ job_ids: [first.id, second.id], format: 'zip', chapters: 'jobs' });
    const names = Object.keys(unzipSync(bytes));
    expect(names.filter((n) => n.endsWith('.mp3'))).toEqual(['01 The Beginning.mp3', '02 Part Two.mp3']);
    expect(names.filter((n) => n.endsWith('.vtt') || n.endsWith('.srt'))).toHaveLength(4);
    const files = unzipSync(bytes);
    const decoded = await decodeIndependently('mp3', files['02 Part Two.mp3']!);
    expect(Math.abs(decoded.seconds - (second.timings.duration_s + HEAD_S))).toBeLessThan(0.15);
    const cues = cueTimes(new TextDecoder().decode(files['02 Part Two.srt']));
    expectCuesMatch(cues, second.timings, 0, second.timings.duration_s + HEAD_S);
  }, 120_000);
});

describe('jobs of several rates', () => {
  it('resamples a 16 kHz job into a 22.05 kHz book: lengths, chapter times and loudness hold', async () => {
    const response = await gateway.post('/api/v1/tts/synthesize', {
      text: 'A voice at sixteen kilohertz ends this book.',
      voice: 'svox-pico:en-US',
      mode: 'job',
    });
    expect(response.status, await response.clone().text()).toBe(202);
    const { job_id: pico } = (await response.json()) as { job_id: string };
    expect((await waitForJob(gateway, pico)).status).toBe('done');
    const picoTimings = (await (await gateway.api(`/api/v1/tts/jobs/${pico}/timings`)).json()) as JobTimings;

    const { view, bytes } = await exported({ job_ids: [second.id, pico], format: 'mp3', chapters: 'jobs' });
    const expectedDuration = HEAD_S + second.timings.duration_s + GAP_S + picoTimings.duration_s + HEAD_S;
    // the gap grows by less than an MP3 frame so that the book's cuts fall on frames (segments.ts)
    const frameS = 1152 / 22_050;
    expect(view.file!.duration_s - expectedDuration).toBeGreaterThan(-0.01);
    expect(view.file!.duration_s - expectedDuration).toBeLessThan(frameS + 0.01);
    expect(view.chapters[1]!.start_s - (HEAD_S + second.timings.duration_s + GAP_S)).toBeGreaterThan(-0.01);
    expect(view.chapters[1]!.start_s - (HEAD_S + second.timings.duration_s + GAP_S)).toBeLessThan(frameS + 0.01);
    const decoded = await decodeIndependently('mp3', bytes);
    expect(decoded.sampleRate).toBe(22_050);
    expect(Math.abs(decoded.seconds - expectedDuration)).toBeLessThan(0.15);
    expectLoudness(decoded.samples, decoded.sampleRate, -18, -3);
  }, 120_000);
});

describe('job subtitles', () => {
  it('gives one cue per sentence, in order, inside the audio, at the timings', async () => {
    for (const format of ['vtt', 'srt'] as const) {
      const response = await gateway.api(`/api/v1/tts/jobs/${first.id}/subtitles?format=${format}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(format === 'vtt' ? /^text\/vtt/ : /^application\/x-subrip/);
      const text = await response.text();
      expect(text.startsWith('WEBVTT')).toBe(format === 'vtt');
      expectCuesMatch(cueTimes(text), first.timings, 0, first.timings.duration_s);
      expect(text).toContain('Chapter 2: The Storm');
    }
  });
});

const code = async (response: Response) => [response.status, ((await response.json()) as { error: { code: string } }).error.code];

describe('export errors', () => {
  it('answers clear JSON errors for bad requests', async () => {
    const post = (body: unknown) => gateway.post('/api/v1/tts/exports', body);
    expect(await code(await post({ job_ids: ['00000000-0000-4000-8000-000000000000'], format: 'm4b' }))).toEqual([404, 'job_not_found']);
    expect(await code(await post({ job_ids: Array.from({ length: EXPORT_LIMITS.jobs + 1 }, () => first.id), format: 'm4b' }))).toEqual([
      400,
      'invalid_request',
    ]);
    expect(await code(await post({ job_ids: [first.id, first.id], format: 'm4b' }))).toEqual([400, 'invalid_request']);
    expect(await code(await post({ job_ids: [first.id], format: 'ogg' }))).toEqual([400, 'invalid_request']);
    expect(await code(await post({ job_ids: [first.id], format: 'mp3', cover: Buffer.from('GIF89a').toString('base64') }))).toEqual([
      400,
      'invalid_request',
    ]);
    expect(await code(await post({ job_ids: [first.id], format: 'mp3', loudness_target_lufs: -5 }))).toEqual([400, 'invalid_request']);
    expect(await code(await post({ job_ids: [first.id], format: 'mp3', room_tone_head_ms: 200 }))).toEqual([400, 'invalid_request']);
    const stranger = { job_id: second.id, title: 'X', text_offset: 0 };
    expect(await code(await post({ job_ids: [first.id], format: 'mp3', chapters: [stranger] }))).toEqual([400, 'invalid_request']);
    expect(await code(await gateway.api('/api/v1/tts/exports/nope'))).toEqual([404, 'export_not_found']);
    expect(await code(await gateway.api('/api/v1/tts/jobs/nope/subtitles'))).toEqual([404, 'job_not_found']);

    const running = await gateway.post('/api/v1/tts/synthesize', { text: 'Still being spoken. '.repeat(40), mode: 'job' });
    const { job_id } = (await running.json()) as { job_id: string };
    expect(await code(await post({ job_ids: [job_id], format: 'mp3' }))).toEqual([409, 'job_not_finished']);
    await waitForJob(gateway, job_id);
  }, 60_000);
});

describe('file names', () => {
  it('an export titled with a lone surrogate: its file and subtitles are sent, named by RFC 6266 filename*', async () => {
    // half of a pair, as a title cut in two holds: it has no UTF-8, and encodeURIComponent throws on it
    const { view } = await exported({ job_ids: [second.id], format: 'mp3', title: 'Part \ud83d "two"' });
    expect(view.title).toBe('Part \ud83d "two"');
    for (const url of [view.file!.url, view.file!.url.replace(/file$/, 'subtitles')]) {
      const response = await gateway.api(url);
      expect(response.status, url).toBe(200);
      const disposition = response.headers.get('content-disposition')!;
      expect(disposition).toMatch(
        /^attachment; filename="Part _ _two_\.(mp3|vtt)"; filename\*=UTF-8''Part%20%EF%BF%BD%20_two_\.(mp3|vtt)$/,
      );
      await response.arrayBuffer();
    }
  });
});

describe('deleting an export', () => {
  it('stops one being made and leaves none of its files', async () => {
    const response = await gateway.post('/api/v1/tts/exports', { job_ids: [first.id, second.id], format: 'm4b' });
    const { export_id } = (await response.json()) as { export_id: string };
    expect((await gateway.api(`/api/v1/tts/exports/${export_id}`, { method: 'DELETE' })).status).toBe(204);
    expect(await code(await gateway.api(`/api/v1/tts/exports/${export_id}`))).toEqual([404, 'export_not_found']);
    const exportsDir = path.join(gateway.dataDir, 'exports');
    await expect
      .poll(async () => (await readdir(exportsDir)).filter((name) => name.startsWith(export_id)), { timeout: 10_000 })
      .toEqual([]);
    // the queue goes on: the next export is made
    expect((await exported({ job_ids: [second.id], format: 'mp3' })).view.status).toBe('done');
  }, 60_000);
});

describe('exports across a restart', () => {
  it('keeps finished exports (Range works), records interrupted ones failed, and deletes with the files', async () => {
    const { view } = await exported({ job_ids: [second.id], format: 'mp3' });
    const exportsDir = path.join(gateway.dataDir, 'exports');
    const interrupted = { ...view, export_id: '11111111-2222-4333-8444-555555555555', status: 'running' };
    delete (interrupted as Partial<Export>).file;
    await writeFile(path.join(exportsDir, `${interrupted.export_id}.json`), JSON.stringify(interrupted));
    await gateway.close();
    gateway = await startTestGateway({ dataDir: gateway.dataDir });

    const kept = (await (await gateway.api(`/api/v1/tts/exports/${view.export_id}`)).json()) as Export;
    expect([kept.status, kept.file?.bytes]).toEqual(['done', view.file!.bytes]);
    const range = await gateway.api(kept.file!.url, { headers: { range: 'bytes=0-9' } });
    expect(range.status).toBe(206);
    expect(new Uint8Array(await range.arrayBuffer()).subarray(0, 3)).toEqual(new Uint8Array([0x49, 0x44, 0x33])); // "ID3"
    const failed = (await (await gateway.api(`/api/v1/tts/exports/${interrupted.export_id}`)).json()) as Export;
    expect([failed.status, failed.error?.code]).toEqual(['failed', 'interrupted']);
    const listed = (await (await gateway.api('/api/v1/tts/exports')).json()) as { exports: Export[] };
    expect(listed.exports.map((e) => e.export_id)).toContain(view.export_id);
    expect(await code(await gateway.api(`/api/v1/tts/exports/${interrupted.export_id}/file`))).toEqual([409, 'export_failed']);

    expect((await gateway.api(`/api/v1/tts/exports/${view.export_id}`, { method: 'DELETE' })).status).toBe(204);
    expect((await gateway.api(`/api/v1/tts/exports/${view.export_id}`)).status).toBe(404);
    expect((await readdir(exportsDir)).filter((name) => name.startsWith(view.export_id))).toEqual([]);
    expect(existsSync(path.join(exportsDir, `${interrupted.export_id}.json`))).toBe(true);
  }, 120_000);
});
