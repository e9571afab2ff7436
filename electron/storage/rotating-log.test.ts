import { existsSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { RotatingLog } from './rotating-log';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-log-'));
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('rotates by size, keeps the newest files and never splits or loses a line', async () => {
  const file = path.join(dir, 'logs', 'requests.jsonl');
  const log = new RotatingLog(file, { maxBytes: 1000, keep: 3 });
  const line = (n: number) => JSON.stringify({ n, pad: 'x'.repeat(80) }); // about 100 bytes with the newline
  for (let n = 0; n < 100; n++) log.write(line(n));
  log.close();

  expect((await readdir(path.dirname(file))).sort()).toEqual([
    'requests.jsonl',
    'requests.jsonl.1',
    'requests.jsonl.2',
    'requests.jsonl.3',
  ]);
  const files = [`${file}.3`, `${file}.2`, `${file}.1`, file];
  for (const f of files) {
    expect(statSync(f).size).toBeLessThanOrEqual(1000);
    expect(statSync(f).mode & 0o777).toBe(0o600);
  }
  expect(statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  // the four files hold the newest lines, whole and in order; older ones were dropped
  const kept = files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { n: number }).n),
  );
  expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => 100 - kept.length + i));
  expect(kept.length).toBeGreaterThanOrEqual(3 * 9);
});

it('continues an existing file after a restart, counting its size', async () => {
  const file = path.join(dir, 'requests.jsonl');
  const first = new RotatingLog(file, { maxBytes: 250, keep: 1 });
  first.write('a'.repeat(99));
  first.close();
  const second = new RotatingLog(file, { maxBytes: 250, keep: 1 });
  second.write('b'.repeat(99));
  expect(existsSync(`${file}.1`)).toBe(false);
  second.write('c'.repeat(99)); // 300 bytes would pass the limit: rotated first
  second.close();
  expect(readFileSync(`${file}.1`, 'utf8')).toBe(`${'a'.repeat(99)}\n${'b'.repeat(99)}\n`);
  expect(readFileSync(file, 'utf8')).toBe(`${'c'.repeat(99)}\n`);
});

it('loses lines, not the caller, when it cannot write', async () => {
  // a file where the log's folder should be: every open fails
  const blocked = path.join(dir, 'blocked');
  await writeFile(blocked, '');
  const log = new RotatingLog(path.join(blocked, 'requests.jsonl'), { maxBytes: 1000, keep: 1 });
  const said = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    expect(() => log.write('one')).not.toThrow();
    expect(() => log.write('two')).not.toThrow();
    expect(said).toHaveBeenCalledTimes(1); // said once, not per line
    expect(String(said.mock.calls[0]![0])).toContain('log lines are dropped');
  } finally {
    said.mockRestore();
  }
});
