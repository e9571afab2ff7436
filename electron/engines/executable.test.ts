/**
 * The rules for engine programs, on real files. A file owned by another user cannot be made
 * without root; when these tests run as root, root's own files are the allowed case, and a file
 * given to another uid is tested.
 */
import { chmod, chown, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustedProgram, UntrustedProgram } from './executable';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-exec-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

async function program(name: string, mode: number): Promise<string> {
  const file = path.join(dir, name);
  await writeFile(file, '#!/bin/sh\ntrue\n');
  await chmod(file, mode); // chmod, not writeFile's mode: the umask would mask it
  return file;
}

const reason = (file: string) =>
  trustedProgram(file).then(
    () => null,
    (error: unknown) => {
      expect(error).toBeInstanceOf(UntrustedProgram);
      return (error as Error).message;
    },
  );

describe('trustedProgram', () => {
  it("accepts an executable file of the user's own, and the system's programs, by their real path", async () => {
    const own = await program('own', 0o755);
    expect(await trustedProgram(own)).toBe(own);
    expect(await trustedProgram('/bin/sh')).toMatch(/^\/(usr\/)?bin\/(dash|bash|sh)$/);
    const link = path.join(dir, 'link-to-own');
    await symlink(own, link);
    expect(await trustedProgram(link)).toBe(own);
  });

  it('refuses a relative path, a missing file, a folder and a file that is not executable', async () => {
    expect(await reason('bin/espeak-ng')).toBe('"bin/espeak-ng" is not an absolute path');
    expect(await reason(path.join(dir, 'missing'))).toBe(`${path.join(dir, 'missing')} does not exist`);
    const folder = path.join(dir, 'folder');
    await mkdir(folder);
    expect(await reason(folder)).toBe(`${folder} is a folder`);
    const plain = await program('plain', 0o644);
    expect(await reason(plain)).toBe(`${plain} is not executable`);
  });

  it('refuses a file that other users can change, by group or by world', async () => {
    const everyone = await program('everyone', 0o777);
    expect(await reason(everyone)).toBe(
      `${everyone} can be changed by other users (mode 0777); remove the group and world write bits: chmod go-w`,
    );
    const group = await program('group', 0o775);
    expect(await reason(group)).toMatch(/\(mode 0775\)/);
  });

  it('judges a symbolic link by the file it leads to', async () => {
    const bad = await program('bad-target', 0o757);
    const link = path.join(dir, 'link-to-bad');
    await symlink(bad, link);
    expect(await reason(link)).toBe(
      `${link} (${bad}) can be changed by other users (mode 0757); remove the group and world write bits: chmod go-w`,
    );
    const dangling = path.join(dir, 'dangling');
    await symlink(path.join(dir, 'nothing-here'), dangling);
    expect(await reason(dangling)).toBe(`${dangling} does not exist`);
  });

  it("refuses a file owned by another user (only root can make one; as another user, root's own files pass)", async () => {
    const other = await program('other', 0o755);
    if (process.getuid!() === 0) {
      await chown(other, 12345, 12345);
      expect(await reason(other)).toBe(`${other} is owned by user id 12345, neither root nor the user Orator runs as`);
    } else {
      expect(await reason('/bin/sh')).toBeNull();
      expect(await reason(other)).toBeNull();
    }
  });

  it('checks only the path and the file type on Windows', async () => {
    const everyone = await program('everyone-win', 0o777);
    expect(await trustedProgram(everyone, 'win32')).toBe(everyone);
    await expect(trustedProgram('relative.exe', 'win32')).rejects.toThrow('is not an absolute path');
    await expect(trustedProgram(dir, 'win32')).rejects.toThrow('is a folder');
  });
});
