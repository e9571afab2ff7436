import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ApiError } from '../contract';
import { DiskBudget, DiskFull, RESERVE_BYTES, RESERVE_FILE } from './disk-budget';

const MB = 1024 * 1024;
const FLOOR = 100 * MB;
const wording = { what: 'This work', advice: 'Free some space.' };
let dataDir: string;
beforeEach(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-ledger-'));
});
afterEach(() => rm(dataDir, { recursive: true, force: true }));

/** A ledger over a disk that has `free` bytes, less what is written through it (a double of statfs). */
function ledger(free: number) {
  const disk = new (class extends DiskBudget {
    written = 0;
    override free = () => Promise.resolve(free - this.written);
  })(dataDir, FLOOR);
  const write = async (key: string, bytes: number) => {
    await disk.write(key, bytes);
    disk.written += bytes;
  };
  return { disk, write };
}

describe('the disk ledger', () => {
  it('refuses work that does not fit beside what others reserved (507), and counts a reservation until it ends', async () => {
    const { disk } = ledger(FLOOR + 10 * MB);
    await disk.reserve('a', 6 * MB, wording);
    await expect(disk.reserve('b', 6 * MB, wording)).rejects.toMatchObject({
      code: 'insufficient_storage',
      message:
        'This work needs up to 6.0 MB of disk, and 110.0 MB are free, of which 100.0 MB must stay free and 6.0 MB are set aside for work already accepted. Free some space.',
    });
    disk.release('a');
    await disk.reserve('b', 6 * MB, wording);
  });

  it('counts every reservation asked for at the same moment: of four that fit two, two are refused', async () => {
    // statfs answers later, as a real disk does: each reservation must see those made while it waited
    const disk = new (class extends DiskBudget {
      override free = () => new Promise<number>((resolve) => setTimeout(() => resolve(FLOOR + 10 * MB), 5));
    })(dataDir, FLOOR);
    await writeFile(path.join(dataDir, RESERVE_FILE), Buffer.alloc(RESERVE_BYTES));
    const asked = await Promise.allSettled(['a', 'b', 'c', 'd'].map((key) => disk.reserve(key, 4 * MB, wording)));
    expect(asked.filter((answer) => answer.status === 'fulfilled')).toHaveLength(2);
  });

  it('lets work write what it reserved; past it, only into room nobody else reserved', async () => {
    const { disk, write } = ledger(FLOOR + 10 * MB);
    await disk.reserve('a', 4 * MB, wording);
    await disk.reserve('b', 4 * MB, wording);
    await write('a', 4 * MB);
    // beyond its reservation: 2 MB are neither reserved nor below the floor
    await write('a', 2 * MB);
    await expect(write('a', 1)).rejects.toBeInstanceOf(DiskFull);
    // b's room is still there for b
    await write('b', 4 * MB);
    await expect(write('b', 1)).rejects.toThrow(/The disk is nearly full \(100\.0 MB free; Orator keeps 100\.0 MB free\)/);
  });

  it('fails the writer, not the next request, when another program takes the room', async () => {
    const { disk, write } = ledger(FLOOR + 10 * MB);
    await disk.reserve('a', 8 * MB, wording);
    disk.written += 9 * MB; // another program
    await expect(write('a', 2 * MB)).rejects.toBeInstanceOf(DiskFull);
    disk.release('a');
    await disk.reserve('next', 1 * MB, wording);
  });

  it('answers work done at once with 507 when a write would cross the floor, and releases its room', async () => {
    const { disk } = ledger(FLOOR + 10 * MB);
    const failed = disk.withRoom(2 * MB, wording, async (write) => {
      await write(MB);
      await write(12 * MB);
    });
    await expect(failed).rejects.toBeInstanceOf(ApiError);
    await expect(failed).rejects.toMatchObject({ code: 'insufficient_storage', status: 507 });
    await expect(disk.withRoom(10 * MB, wording, () => 'stored')).resolves.toBe('stored');
  });
});
