import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { engineEnvironment } from './child-env';
import { runToolRaw } from './cli';
import { ModelProcess } from './sherpa-onnx/client';

// Real child processes, started by the two spawn sites of the engines: runToolRaw (every system
// program) and ModelProcess (the neural model process, forked with an IPC channel).
const SECRET = 'do-not-leak-this-key';
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-child-env-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));
const SET_HERE = { ORATOR_API_KEY: SECRET, ORATOR_ADMIN_TOKEN: SECRET, AWS_SECRET_ACCESS_KEY: SECRET, LC_ALL: 'C.UTF-8' };
// the files after this one run in the same process (isolate: false): what was there comes back
const before = new Map(Object.keys(SET_HERE).map((name) => [name, process.env[name]]));
beforeEach(() => {
  Object.assign(process.env, SET_HERE);
});
afterEach(() => {
  for (const [name, value] of before) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
});

function parseEnv(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\0')
      .filter(Boolean)
      .map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]),
  );
}

describe('engine processes', () => {
  it('a system program gets PATH, HOME and the locale, and no key or other secret', async () => {
    const { stdout } = await runToolRaw('/usr/bin/env', ['-0']);
    const env = parseEnv(stdout.toString('utf8'));
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.HOME).toBe(process.env.HOME);
    expect(env.LC_ALL).toBe('C.UTF-8');
    expect(stdout.toString('utf8')).not.toContain(SECRET);
    expect(Object.keys(env).every((name) => engineEnvironment({ [name]: 'x' })[name] === 'x')).toBe(true);
  });

  it('the neural model process gets the same allow-list', async () => {
    // A stand-in for the model host bundle (which needs model weights to answer anything): it
    // answers the first request with its own environment, through the real fork and IPC channel.
    const host = path.join(dir, 'env-host.cjs');
    await writeFile(host, "process.on('message', (m) => process.send({ id: m.id, ok: false, message: JSON.stringify(process.env) }));\n");
    await chmod(host, 0o600);
    const processHost = new ModelProcess(host);
    const error = (await processHost.request({ type: 'load', spec: {} as never }).catch((e: unknown) => e)) as Error;
    processHost.stop();
    const env = JSON.parse(error.message) as Record<string, string>;
    expect(env.PATH).toBe(process.env.PATH);
    expect(env.LC_ALL).toBe('C.UTF-8');
    expect(error.message).not.toContain(SECRET);
    expect(env.ORATOR_API_KEY).toBeUndefined();
  });

  it('passes Windows names whatever their case, and LC_* by prefix', () => {
    expect(
      engineEnvironment({
        Path: 'C:\\Windows',
        SystemRoot: 'C:\\Windows',
        LC_MESSAGES: 'de_DE',
        ORATOR_API_KEY: 'k',
        NODE_OPTIONS: '--require x',
      }),
    ).toEqual({
      Path: 'C:\\Windows',
      SystemRoot: 'C:\\Windows',
      LC_MESSAGES: 'de_DE',
    });
  });
});
