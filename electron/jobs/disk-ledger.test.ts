/**
 * The disk budget is one ledger: jobs, exports, sentence edits and project text reserve what they
 * will write before writing and check as they write, so that no work takes the disk below the free
 * minimum and another user's next request still fits. A real disk: a 48 MB tmpfs
 * (testing/small-disk.ts) keeping 8 MB free, the gateway a child process on it, the disk filled
 * from outside as another program would.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, readdir, readFile, rm, statfs, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pcmBytes, WAV_HEADER_BYTES, wavHeader } from '../audio/wav';
import { estimateExportBytes, type Export } from '../contract';
import { waitForJob } from '../testing/gateway';
import { exited, spawnGateway, type GatewayProcess } from '../testing/process';
import { prose } from '../testing/prose';
import { smallDisk, type SmallDisk } from '../testing/small-disk';
import { JobFiles } from './files';

const MB = 1024 * 1024;
const FLOOR = 8 * MB;
let disk: SmallDisk;
let gateway: GatewayProcess;
let keyFile: string;
/** A finished WAV job whose WAV holds six minutes (its own speech, repeated): 15.9 MB. */
let book: string;
let bookFile: string;

const free = async () => {
  const { bavail, bsize } = await statfs(disk.outside());
  return bavail * bsize;
};
const post = (route: string, body: unknown) =>
  gateway.api(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

/** Fills the disk from outside until `leave` bytes are free, as another program would; returns the undoing. */
async function fill(leave: number): Promise<() => Promise<void>> {
  const filler = disk.outside(`filler-${Date.now()}`);
  const room = (await free()) - leave;
  if (room > 0) await appendFile(filler, Buffer.alloc(room, 1));
  return () => rm(filler, { force: true });
}

/** Polls exports until none is running, noting the lowest free space seen meanwhile. */
async function settle(polls: string[]): Promise<{ views: Export[]; lowest: number }> {
  let lowest = await free();
  for (;;) {
    const views = await Promise.all(polls.map(async (poll) => (await (await gateway.api(poll)).json()) as Export));
    lowest = Math.min(lowest, await free());
    if (views.every((view) => view.status !== 'running')) return { views, lowest };
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

beforeAll(async () => {
  disk = await smallDisk(48);
  keyFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'orator-ledger-key-')), 'api-key');
  await writeFile(keyFile, 'disk-ledger-test-key\n', { mode: 0o600 });
  gateway = await spawnGateway(
    ['--data-dir', `${disk.dir}/data`, '--api-key-file', keyFile, '--min-free-mb', String(FLOOR / MB), '--workers', '2'],
    process.env,
    disk.launcher,
  );
  const response = await post('/api/v1/tts/synthesize', { text: prose(300), mode: 'job' });
  book = ((await response.json()) as { job_id: string }).job_id;
  expect((await waitForJob(gateway, book)).status).toBe('done');
  // a long book by construction: its audio repeated to six minutes
  bookFile = disk.outside('data', path.relative('/data', new JobFiles('/data').audioFile(book, 'wav')));
  const speech = (await readFile(bookFile)).subarray(WAV_HEADER_BYTES);
  const own = new Int16Array(speech.buffer, speech.byteOffset, speech.length / 2);
  const samples = new Int16Array(22050 * 60 * 6);
  for (let at = 0; at < samples.length; at += own.length) samples.set(own.subarray(0, samples.length - at), at);
  await writeFile(bookFile, Buffer.concat([wavHeader(22050, samples.byteLength), pcmBytes(samples)]));
}, 300_000);
afterAll(async () => {
  gateway?.child.kill('SIGKILL');
  if (gateway) await exited(gateway.child);
  await disk.close();
  await rm(path.dirname(keyFile), { recursive: true, force: true });
});

describe('exports', () => {
  it("on a disk that fits one MP3 export's writes but not two, the second is refused at once (507), not made and failed", async () => {
    // a segmented MP3 writes its segments' frames (kept for the next export) and then the book: at
    // 64 kb/s each is about 2.7 MiB, reserved at 4.1 (1.5 x the bitrate), 8.2 in all. 9.6 MiB
    // above the floor hold one export's reservation but not two, nor two exports' real writes
    const unfill = await fill(FLOOR + 9.6 * MB);
    try {
      const first = await post('/api/v1/tts/exports', { job_ids: [book], format: 'mp3', bitrate_kbps: 64 });
      expect(first.status).toBe(202);
      // another loudness: its frames are its own, none of the first's reused
      const second = await post('/api/v1/tts/exports', { job_ids: [book], format: 'mp3', bitrate_kbps: 64, loudness_target_lufs: -20 });
      expect(second.status).toBe(507);
      const { poll } = (await first.json()) as { poll: string };
      const { views, lowest } = await settle([poll]);
      expect(views[0]!.status, JSON.stringify(views[0]!.error)).toBe('done');
      const need = 2 * estimateExportBytes(views[0]!.file!.duration_s, 64);
      expect(await errorOf(second)).toMatchObject({
        code: 'insufficient_storage',
        message: expect.stringMatching(new RegExp(`^This export needs up to ${(need / MB).toFixed(1).replace('.', '\\.')} MB of disk`)),
      });
      expect(lowest).toBeGreaterThanOrEqual(FLOOR);
      expect((await gateway.api(`/api/v1/tts/exports/${views[0]!.export_id}`, { method: 'DELETE' })).status).toBe(204);
    } finally {
      await unfill();
    }
  }, 600_000);

  it('7 MP3 exports posted at once: those that fit are made, the rest refused with 507; the disk stays above its floor', async () => {
    // each reserves its segments' frames and its file (5.2 MiB at 40 kb/s): two or three fit
    const exportBody = { job_ids: [book], format: 'mp3', bitrate_kbps: 40 };
    const answers = await Promise.all(Array.from({ length: 7 }, () => post('/api/v1/tts/exports', exportBody)));
    const accepted = answers.filter((answer) => answer.status === 202);
    const polls = await Promise.all(accepted.map(async (answer) => ((await answer.json()) as { poll: string }).poll));
    const { views, lowest } = await settle(polls);
    console.log(
      `7 exports: ${answers.map((a) => a.status).join(' ')}; made ${views.map((v) => v.file?.bytes ?? v.error?.code).join(', ')} bytes; lowest free ${(lowest / MB).toFixed(1)} MB (floor ${FLOOR / MB})`,
    );
    expect(lowest).toBeGreaterThanOrEqual(FLOOR);
    // several reservations stand side by side, each counted by the next
    expect(accepted.length).toBeGreaterThanOrEqual(2);
    expect(views.map((view) => view.status)).toEqual(accepted.map(() => 'done'));
    // refused for the disk (507), or, asked while four were being weighed, for the key's four exports (429)
    const refusals = await Promise.all(answers.filter((a) => a.status !== 202).map(async (a) => [a.status, await errorOf(a)] as const));
    expect(refusals.map(([status, error]) => [status, error.code])).toContainEqual([507, 'insufficient_storage']);
    for (const [status, error] of refusals)
      expect([
        [507, 'insufficient_storage'],
        [429, 'too_many_exports'],
      ]).toContainEqual([status, error.code]);
    // what each reserved: its segments' frames and its file
    const need = 2 * estimateExportBytes(views[0]!.file!.duration_s, 40);
    expect(refusals.find(([status]) => status === 507)![1].message).toMatch(
      new RegExp(
        `^This export needs up to ${(need / MB).toFixed(1).replace('.', '\\.')} MB of disk, and [\\d.]+ MB are free, of which 8\\.0 MB must stay free`,
      ),
    );
    // another user's next request still fits
    const next = await post('/api/v1/tts/synthesize', { text: 'One more line.', mode: 'job' });
    expect(next.status).toBe(202);
    expect((await waitForJob(gateway, ((await next.json()) as { job_id: string }).job_id)).status).toBe('done');
    for (const view of views) expect((await gateway.api(`/api/v1/tts/exports/${view.export_id}`, { method: 'DELETE' })).status).toBe(204);
  }, 600_000);

  it('fails an export with disk_full when another program takes its room while it is made; nothing of it stays', async () => {
    const answer = await post('/api/v1/tts/exports', { job_ids: [book], format: 'mp3', bitrate_kbps: 96 });
    expect(answer.status).toBe(202);
    const { poll, export_id } = (await answer.json()) as { poll: string; export_id: string };
    const unfill = await fill(FLOOR + 2 * MB);
    try {
      const { views, lowest } = await settle([poll]);
      expect(views[0]!.status).toBe('failed');
      expect(views[0]!.error).toMatchObject({ code: 'disk_full', message: expect.stringMatching(/free some space/) });
      expect(lowest).toBeGreaterThanOrEqual(FLOOR);
      expect((await readdir(disk.outside('data', 'exports'))).filter((name) => name.includes(export_id))).toEqual(
        expect.not.arrayContaining([expect.stringMatching(/partial|mp3$/)]),
      );
      // the gateway goes on: a one-line job fits
      expect((await post('/api/v1/tts/synthesize', { text: 'Still here.', mode: 'job' })).status).toBe(202);
    } finally {
      await unfill();
    }
  }, 600_000);
});

describe('sentence edits and project text', () => {
  it("refuse with 507 what cannot fit (a sentence edit writes the job's whole WAV anew), and leave the audio as it was", async () => {
    const before = await readFile(bookFile);
    const unfills = [await fill(FLOOR + MB)];
    try {
      const edit = await gateway.api(`/api/v1/tts/jobs/${book}/sentences/0`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: 'A new first sentence.' }),
      });
      expect(edit.status).toBe(507);
      expect((await errorOf(edit)).message).toMatch(/^This edit needs up to 15\.\d MB of disk/);
      expect((await readFile(bookFile)).equals(before)).toBe(true);
      expect(existsSync(`${bookFile}.partial`)).toBe(false);

      // the edit's refusal took back what the kept export segments held: fill that too
      unfills.push(await fill(FLOOR + MB));
      const manuscript = { name: 'big.txt', text: prose(1_500_000) };
      const project = await post('/api/v1/tts/projects', { manuscript });
      expect(project.status).toBe(507);
      expect((await errorOf(project)).message).toMatch(/^This manuscript's text needs up to/);
      expect(await free()).toBeGreaterThanOrEqual(FLOOR);
    } finally {
      for (const unfill of unfills) await unfill();
    }
    const edit = await gateway.api(`/api/v1/tts/jobs/${book}/sentences/0`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: 'A new first sentence.' }),
    });
    expect(edit.status).toBe(200);
  }, 300_000);
});
