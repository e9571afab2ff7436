import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ApiError } from '../../contract';
import { SpawnHost } from './client';

// the built host (npm run build)
const host = new SpawnHost(path.resolve('dist/spawn-host.mjs'));
afterAll(() => host.close());

describe('SpawnHost', () => {
  it('runs a program and hands back its output and its error output', async () => {
    const { stdout, stderr } = await host.run('/bin/sh', ['-c', 'printf "\\000\\001abc"; echo oops >&2']);
    expect([...stdout]).toEqual([0, 1, 97, 98, 99]);
    expect(stderr).toBe('oops\n');
  });

  it('passes standard input', async () => {
    const { stdout } = await host.run('/bin/cat', [], { input: 'text in' });
    expect(stdout.toString()).toBe('text in');
  });

  it('rejects with the exit code and the error output of a failing program', async () => {
    await expect(host.run('/bin/sh', ['-c', 'echo broken >&2; exit 3'])).rejects.toThrow(/exited with 3: broken/);
  });

  it('turns an overrun into engine_timeout', async () => {
    const error = await host.run('/bin/sleep', ['30'], { timeoutMs: 200 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe('engine_timeout');
  });

  it("rejects with the caller's reason on abort and goes on serving", async () => {
    const stop = new AbortController();
    const running = host.run('/bin/sh', ['-c', 'echo $$; exec sleep 30']);
    const aborted = host.run('/bin/sleep', ['30'], { signal: stop.signal });
    stop.abort(new Error('not wanted'));
    await expect(aborted).rejects.toThrow('not wanted');
    // the host still serves the other run and new ones
    const { stdout } = await host.run('/bin/echo', ['after']);
    expect(stdout.toString()).toBe('after\n');
    host.close();
    await expect(running).rejects.toThrow(/spawn host was closed/);
  });

  it('forks a new host after the last one died', async () => {
    host.close();
    const { stdout } = await host.run('/bin/echo', ['again']);
    expect(stdout.toString()).toBe('again\n');
  });
});
