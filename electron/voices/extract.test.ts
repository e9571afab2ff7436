import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { unsafePath, type ExtractRequest } from './extract';
import { unpackInWorker } from './unpack';

// Archives made by GNU tar and bzip2/gzip, as sherpa-onnx's releases are, hostile ones included,
// unpacked by the built worker thread the installer uses.
const WORKER = path.resolve('dist/unpack-worker.mjs');
const extractArchive = (request: ExtractRequest) => unpackInWorker(WORKER, request);
let root: string;
beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'orator-extract-'));
  await mkdir(path.join(root, 'src/model/espeak-ng-data'), { recursive: true });
  await writeFile(path.join(root, 'src/model/model.onnx'), Buffer.alloc(300_000, 7));
  await writeFile(path.join(root, 'src/model/tokens.txt'), 'a 1\n');
  await writeFile(path.join(root, 'src/model/espeak-ng-data/phontab'), 'x');
});

const tar = (name: string, flags: string[], ...entries: string[]) => {
  const file = path.join(root, name);
  execFileSync('tar', ['-C', path.join(root, 'src'), ...flags, '-cf', file, ...entries]);
  return file;
};
const into = async () => mkdtemp(path.join(root, 'out-'));

describe('extractArchive', { timeout: 240_000 }, () => {
  it('unpacks a .tar.bz2 and a .tar.gz with their folders', async () => {
    for (const [kind, flag] of [
      ['tar.bz2', '-j'],
      ['tar.gz', '-z'],
    ] as const) {
      const dest = await into();
      const result = await extractArchive({ archive: tar(`model.${kind}`, [flag], 'model'), kind, dest, maxBytes: 10_000_000 });
      expect(result).toEqual({ files: 3, bytes: 300_000 + 4 + 1 });
      expect(await readdir(path.join(dest, 'model'))).toEqual(['espeak-ng-data', 'model.onnx', 'tokens.txt']);
      expect(await readFile(path.join(dest, 'model/model.onnx'))).toEqual(Buffer.alloc(300_000, 7));
    }
  });

  it('refuses a symbolic link, a "../" entry and an absolute path, writing nothing of them', async () => {
    await mkdir(path.join(root, 'src/linked'));
    await symlink('/etc/passwd', path.join(root, 'src/linked/link'));
    const linked = tar('link.tar.bz2', ['-j'], 'linked/link');
    let dest = await into();
    await expect(extractArchive({ archive: linked, kind: 'tar.bz2', dest, maxBytes: 1e9 })).rejects.toThrow(
      'link.tar.bz2: the entry "linked/link" is a SymbolicLink (links and devices are refused); nothing of it is installed',
    );
    const climbing = tar('climb.tar.bz2', ['-j', '--transform', 's,^,../,'], 'model/tokens.txt');
    dest = await into();
    await expect(extractArchive({ archive: climbing, kind: 'tar.bz2', dest, maxBytes: 1e9 })).rejects.toThrow(
      'the entry "../model/tokens.txt" has a ".." segment',
    );
    expect(await readdir(path.dirname(dest))).not.toContain('model');
    const absolute = tar('absolute.tar.gz', ['-z', '-P', '--transform', 's,^,/tmp/orator-evil/,'], 'model/tokens.txt');
    dest = await into();
    await expect(extractArchive({ archive: absolute, kind: 'tar.gz', dest, maxBytes: 1e9 })).rejects.toThrow('has an absolute path');
  });

  it('stops an archive that unpacks past its limit, and one that is not an archive', async () => {
    const dest = await into();
    await expect(
      extractArchive({ archive: tar('big.tar.bz2', ['-j'], 'model'), kind: 'tar.bz2', dest, maxBytes: 100_000 }),
    ).rejects.toThrow('it unpacks to more than 100000 bytes');
    const junk = path.join(root, 'junk.tar.bz2');
    await writeFile(junk, 'not bzip2 at all');
    const other = await into();
    await expect(extractArchive({ archive: junk, kind: 'tar.bz2', dest: other, maxBytes: 1e9 })).rejects.toThrow(/could not be unpacked/);
  });

  it('names what makes a path unsafe', () => {
    expect(unsafePath('model/tokens.txt')).toBeNull();
    expect(unsafePath('C:\\Windows')).toBe('an absolute path');
    expect(unsafePath('a\\..\\b')).toBe('a ".." segment');
  });
});
