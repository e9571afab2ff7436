/**
 * A full disk, for real: the gateway runs as a child process with its data dir on a 64 MB tmpfs
 * (testing/small-disk.ts), keeps 4 MB free (--min-free-mb 4) and an 8 MB reserve file, and the
 * test fills the disk from outside as another program would.
 */
import { existsSync } from 'node:fs';
import { appendFile, mkdtemp, rm, statfs, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateAudioBytes } from './admission';
import { RESERVE_FILE } from './disk-budget';
import { expectSpeech } from '../testing/audio';
import { waitForJob } from '../testing/gateway';
import { until } from '../testing/until';
import { exited, spawnGateway, type GatewayProcess } from '../testing/process';
import { prose } from '../testing/prose';
import { smallDisk, type SmallDisk } from '../testing/small-disk';

const MB = 1024 * 1024;
let disk: SmallDisk;
let gateway: GatewayProcess | undefined;
/** Outside the small disk: the test reads the key where it gave it, not inside the namespace. */
let keyFile: string;

beforeAll(async () => {
  disk = await smallDisk(64);
  keyFile = path.join(await mkdtemp(path.join(os.tmpdir(), 'orator-small-disk-key-')), 'api-key');
  await writeFile(keyFile, 'small-disk-test-key\n', { mode: 0o600 });
});
afterAll(async () => {
  gateway?.child.kill('SIGKILL');
  if (gateway) await exited(gateway.child);
  await disk.close();
  await rm(path.dirname(keyFile), { recursive: true, force: true });
});

const dataDir = () => `${disk.dir}/data`;
const outside = (...parts: string[]) => disk.outside('data', ...parts);
const start = () =>
  spawnGateway(['--data-dir', dataDir(), '--api-key-file', keyFile, '--min-free-mb', '4', '--workers', '1'], process.env, disk.launcher);
const free = async () => {
  const { bavail, bsize } = await statfs(disk.outside());
  return bavail * bsize;
};

async function queue(text: string, output: Record<string, unknown> = {}) {
  return gateway!.api('/api/v1/tts/synthesize', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text, mode: 'job', ...output }),
  });
}

/** Fills the disk from outside until `leave` bytes are free (0: until writes fail). */
async function fill(leave: number) {
  const filler = disk.outside('filler');
  const piece = Buffer.alloc(MB, 1);
  for (;;) {
    const room = (await free()) - leave;
    if (room <= 0) return;
    try {
      await appendFile(filler, room < MB ? piece.subarray(0, room) : piece);
    } catch {
      return; // full
    }
  }
}

async function expectServing() {
  expect((await gateway!.api('/api/v1/tts/engines')).status).toBe(200);
  const inline = await gateway!.api('/api/v1/tts/synthesize', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'The gateway is still serving.' }),
  });
  expect(inline.status).toBe(200);
  expectSpeech(Buffer.from(await inline.arrayBuffer()));
}

async function expectDiskFull(jobId: string) {
  const job = (await waitForJob(gateway!, jobId)) as { status: string; error?: { code: string; message: string } };
  expect(job.status).toBe('failed');
  expect(job.error!.code).toBe('disk_full');
  expect(job.error!.message).toMatch(/free some space/);
  // its chunk files are freed once the failure is recorded
  await expect.poll(() => existsSync(outside('chunks', jobId))).toBe(false);
}

describe('a full disk', () => {
  it('refuses a job whose audio cannot fit with 507 insufficient_storage', async () => {
    gateway = await start();
    expect(existsSync(outside(RESERVE_FILE))).toBe(true);
    // 100,000 characters at 22,050 Hz: up to 441,000,000 bytes (420.6 MiB) by the estimate, on a 64 MiB disk
    const response = await queue(prose(100_000));
    expect(response.status).toBe(507);
    const { error } = (await response.json()) as { error: { code: string; message: string } };
    expect(error.code).toBe('insufficient_storage');
    expect(error.message).toMatch(/needs up to 420\.6 MB .* MB are free, of which 4\.0 MB must stay free/);
  });

  it('estimates each format: a text too long for the disk as MP3 (its chunk files and its file) fits as WAV', async () => {
    // a length whose MP3 estimate passes the room by a fifth: its WAV estimate is 35% smaller
    const room = (await free()) - 4 * MB;
    const chars = Math.ceil((1.2 * room) / estimateAudioBytes(1, 1, 22050, { format: 'mp3', bitrateKbps: 128, keepWav: false }));
    const text = prose(chars);
    expect((await queue(text, { format: 'mp3' })).status).toBe(507);
    expect((await queue(text, { format: 'mp3', keep_wav: true })).status).toBe(507);
    const wav = await queue(text);
    expect(wav.status).toBe(202);
    const { job_id } = (await wav.json()) as { job_id: string };
    await gateway!.api(`/api/v1/tts/jobs/${job_id}`, { method: 'DELETE' });
    await expect.poll(() => existsSync(outside('chunks', job_id))).toBe(false);
    await expect.poll(() => existsSync(outside('audio', `${job_id}.wav.partial`))).toBe(false);
  });

  it('fails a running job with disk_full when another program fills the disk, frees its chunks, keeps serving', async () => {
    const response = await queue(prose(5000));
    expect(response.status).toBe(202);
    const { job_id } = (await response.json()) as { job_id: string };
    await fill(1 * MB);
    await expectDiskFull(job_id);
    // the reserve went, so that SQLite could record the failure
    expect(existsSync(outside(RESERVE_FILE))).toBe(false);
    await expectServing();
    await rm(disk.outside('filler'));
  });

  it('starts again over a job left running on a disk filled to the last byte, which then fails with disk_full', async () => {
    const response = await queue(prose(5000));
    const { job_id } = (await response.json()) as { job_id: string };
    // the reserve is made again once there is room (here, when the job was accepted)
    expect(existsSync(outside(RESERVE_FILE))).toBe(true);
    await until(async () => (((await waitForProgress(job_id)) ?? 0) >= 2 ? true : undefined), 120_000, 'two chunks done');
    gateway!.child.kill('SIGKILL');
    await exited(gateway!.child);
    await fill(0);
    expect(await free()).toBeLessThan(64 * 1024);

    gateway = await start();
    await expectDiskFull(job_id);
    await expectServing();

    // space freed: jobs run again and the reserve is back
    await rm(disk.outside('filler'));
    const next = await queue(prose(1000));
    expect(next.status).toBe(202);
    const { job_id: nextId } = (await next.json()) as { job_id: string };
    expect((await waitForJob(gateway, nextId)).status).toBe('done');
    expectSpeech(Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${nextId}/audio`)).arrayBuffer()), { minSeconds: 20 });
    expect(existsSync(outside(RESERVE_FILE))).toBe(true);
  });
});

async function waitForProgress(jobId: string): Promise<number | undefined> {
  const job = (await (await gateway!.api(`/api/v1/tts/jobs/${jobId}`)).json()) as { progress: { done: number } };
  return job.progress.done;
}
