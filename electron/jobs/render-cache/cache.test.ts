import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type Db } from '../../storage/database';
import { DiskBudget } from '../disk-budget';
import { RenderCache } from './cache';
import { RENDER_CACHE_DIR } from './files';

let dataDir: string;
let db: Db;
let disk: DiskBudget;

beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-render-cache-'));
  db = openDatabase(dataDir);
  disk = new DiskBudget(dataDir, 1024 * 1024);
});
afterEach(async () => {
  db.close();
  await rm(dataDir, { recursive: true, force: true });
});

const key = (n: number) => n.toString(16).padStart(64, '0');
/** A sentence of `samples` samples, each its index (mod 2^15), at 22.05 kHz. */
const pcm = (samples: number) => ({ sampleRate: 22_050, samples: Int16Array.from({ length: samples }, (_, i) => i % 32_768) });
const open = (maxBytes: number) => RenderCache.open({ db, dataDir, disk, maxBytes });
const files = async () => (await readdir(path.join(dataDir, RENDER_CACHE_DIR), { recursive: true })).filter((f) => f.endsWith('.pcm'));

describe('RenderCache', () => {
  it('gives back what it keeps, at its rate, until evicted', async () => {
    const cache = await open(1_000_000);
    expect(await cache.get(key(1))).toBeNull();
    await cache.put(key(1), pcm(1000));
    const back = await cache.get(key(1));
    expect(back?.sampleRate).toBe(22_050);
    expect([...back!.samples]).toEqual([...pcm(1000).samples]);
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 2000, maxBytes: 1_000_000 });
    expect(cache.stats().seconds).toBeCloseTo(1000 / 22_050, 6);
  });

  it('evicts the least recently used past its bound, a use counting as recent', async () => {
    const cache = await open(5000); // two entries of 2,000 bytes fit, not three
    await cache.put(key(1), pcm(1000));
    await cache.put(key(2), pcm(1000));
    await cache.get(key(1)); // now 2 is the least recent
    await cache.put(key(3), pcm(1000));
    expect(await cache.get(key(2))).toBeNull();
    expect(await cache.get(key(1))).not.toBeNull();
    expect(await cache.get(key(3))).not.toBeNull();
    expect(cache.stats()).toMatchObject({ entries: 2, bytes: 4000, evicted: 1 });
    expect(await files()).toHaveLength(2);
  });

  it('keeps nothing with a bound of 0, nor anything larger than its bound', async () => {
    const none = await open(0);
    await none.put(key(1), pcm(10));
    expect(await none.get(key(1))).toBeNull();
    const small = await open(100);
    await small.put(key(2), pcm(51));
    expect(small.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('survives a reopen, with its order of use; a smaller bound then evicts the least recent', async () => {
    const first = await open(1_000_000);
    for (const n of [1, 2, 3]) await first.put(key(n), pcm(1000));
    await first.get(key(1));
    const again = await open(1_000_000);
    expect(again.stats()).toMatchObject({ entries: 3, bytes: 6000 });
    const smaller = await open(4000);
    expect(smaller.stats()).toMatchObject({ entries: 2, evicted: 1 });
    expect(await smaller.get(key(2))).toBeNull();
    expect(await smaller.get(key(1))).not.toBeNull();
  });

  it('removes at open what a crash left: half-written files, and files no entry names', async () => {
    const cache = await open(1_000_000);
    await cache.put(key(1), pcm(100));
    const shard = path.join(dataDir, RENDER_CACHE_DIR, '00');
    await writeFile(path.join(shard, `${key(2)}.pcm`), Buffer.alloc(200));
    await writeFile(path.join(shard, `${key(3)}.pcm.partial`), Buffer.alloc(10));
    await open(1_000_000);
    expect(await readdir(shard)).toEqual([`${key(1)}.pcm`]);
  });

  it('forgets an entry whose file went, or is not the size it recorded', async () => {
    const cache = await open(1_000_000);
    await cache.put(key(1), pcm(100));
    await cache.put(key(2), pcm(100));
    await rm(path.join(dataDir, RENDER_CACHE_DIR, '00', `${key(1)}.pcm`));
    await writeFile(path.join(dataDir, RENDER_CACHE_DIR, '00', `${key(2)}.pcm`), Buffer.alloc(10));
    expect(await cache.get(key(1))).toBeNull();
    expect(await cache.get(key(2))).toBeNull();
    expect(cache.stats()).toMatchObject({ entries: 0, bytes: 0 });
  });

  it('gives its disk back to the ledger, least recent first, before work is refused', async () => {
    const cache = await open(1_000_000);
    for (const n of [1, 2, 3]) await cache.put(key(n), pcm(1000));
    expect(await cache.reclaim(3000)).toBe(4000);
    expect(cache.stats()).toMatchObject({ entries: 1, bytes: 2000 });
    expect(await cache.get(key(3))).not.toBeNull();

    // a reservation that would not fit even with the cache's room takes it back, then is refused
    const free = await disk.free();
    const asked: number[] = [];
    disk.reclaimFrom({ key: cache.key, reclaim: async (bytes) => (asked.push(bytes), cache.reclaim(bytes)) });
    await expect(disk.reserve('job:x', free, { what: 'This job', advice: '' })).rejects.toThrow(/needs up to/);
    expect(asked).toHaveLength(1);
    expect(cache.stats().entries).toBe(0);
  });

  it('empties on clear, every file with it', async () => {
    const cache = await open(1_000_000);
    for (const n of [1, 2]) await cache.put(key(n), pcm(10));
    expect(await cache.clear()).toMatchObject({ entries: 0, bytes: 0, evicted: 2 });
    expect(await files()).toEqual([]);
  });
});
