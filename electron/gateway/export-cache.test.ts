/**
 * The export cache's bound (the setting `export_cache_mb`) through the gateway: past it the least
 * recently used kept segments go after each export and when the bound changes, and the next export
 * of their book encodes exactly those again. Encodes are counted on disk, in `<data dir>/export-cache/`:
 * a segment encoded is a frames file made anew (a new inode), a segment reused keeps its file.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SETTINGS_PATH, type Export, type SettingsView } from '../contract';
import { prose } from '../testing/prose';
import { finishedJob, putSetting, startTestGateway, waitForExport, type TestGateway } from '../testing/gateway';

const MiB = 1024 * 1024;
let gateway: TestGateway;
/** Book A: two chapters of about 20 s; book B: one of about 40 s. At 128 kb/s each book's frames take about 0.6 MiB. */
let bookA: string[];
let bookB: string[];

const cacheDir = () => path.join(gateway.dataDir, 'export-cache');

/** The kept frames files (one per segment encoded), by name, with their inodes. */
async function frames(): Promise<Map<string, number>> {
  const names = (await readdir(cacheDir())).filter((name) => name.endsWith('.mp3'));
  return new Map(await Promise.all(names.map(async (name) => [name, (await stat(path.join(cacheDir(), name))).ino] as const)));
}

/** What the kept entries take on disk: figures and frames. */
async function keptBytes(): Promise<number> {
  const names = await readdir(cacheDir());
  const sizes = await Promise.all(names.map(async (name) => (await stat(path.join(cacheDir(), name))).size));
  return sizes.reduce((sum, size) => sum + size, 0);
}

/** Exports a book as MP3 and returns the frames files it encoded (new, or made anew) that are kept. */
async function exportEncoding(jobIds: string[]): Promise<string[]> {
  const before = await frames();
  const answer = await gateway.post('/api/v1/tts/exports', { job_ids: jobIds, format: 'mp3', bitrate_kbps: 128 });
  expect(answer.status, await answer.clone().text()).toBe(202);
  const view: Export = await waitForExport(gateway, ((await answer.json()) as { poll: string }).poll, 300_000);
  expect(view.status, JSON.stringify(view.error)).toBe('done');
  return [...(await frames())].filter(([name, ino]) => before.get(name) !== ino).map(([name]) => name);
}

const setCache = (value: unknown) => putSetting(gateway, 'export_cache_mb', value);

const job = (text: string) => finishedJob(gateway, text);

beforeAll(async () => {
  gateway = await startTestGateway();
  bookA = [await job(`Chapter one. ${prose(300)}`), await job(`Chapter two. ${prose(310)}`)];
  bookB = [await job(`Another book. ${prose(620)}`)];
}, 300_000);
afterAll(() => gateway.stop());

describe('the export cache bound (export_cache_mb)', () => {
  it('evicts the least recently used segments after an export; the next export of their book encodes exactly those again', async () => {
    expect((await setCache(1)).status).toBe(200);
    const encodedA = await exportEncoding(bookA);
    expect(encodedA).toHaveLength(2);
    // both books' frames pass 1 MiB: the older book's go when the second export ends, the newer's stay
    const encodedB = await exportEncoding(bookB);
    expect(encodedB).toHaveLength(1);
    const kept = await frames();
    const evicted = encodedA.filter((name) => !kept.has(name));
    console.log(`kept ${((await keptBytes()) / MiB).toFixed(2)} MiB; evicted ${evicted.length} of book A's 2 segments`);
    expect(evicted.length).toBeGreaterThan(0);
    expect(encodedB.every((name) => kept.has(name))).toBe(true);
    expect(await keptBytes()).toBeLessThanOrEqual(MiB);

    expect((await exportEncoding(bookA)).sort()).toEqual(evicted.sort());
  }, 600_000);

  it('0 keeps none: applied when the setting changes, and after an export', async () => {
    expect((await frames()).size).toBeGreaterThan(0);
    const saved = await setCache(0);
    expect(saved.status).toBe(200);
    expect(((await saved.json()) as SettingsView).restart_required).not.toContain('export_cache_mb');
    expect(await readdir(cacheDir())).toEqual([]);
    // the export is made of its segments all the same; none of them stays
    await exportEncoding(bookB);
    expect(await readdir(cacheDir())).toEqual([]);
  }, 600_000);

  it('refuses a bad bound with 400, naming the setting', async () => {
    for (const value of [-1, 1_048_577, 1.5, '64']) {
      const answer = await setCache(value);
      expect(answer.status, String(value)).toBe(400);
      const { error } = (await answer.json()) as { error: { code: string; message: string } };
      expect(error.code).toBe('invalid_request');
      expect(error.message).toMatch(/export_cache_mb/);
    }
    expect(((await (await gateway.api(SETTINGS_PATH)).json()) as SettingsView).settings.export_cache_mb).toBe(0);
  });
});
