import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { WORKER_FILE } from '../../testing/gateway';
import { sherpaOnnxAdapter } from './adapter';
import { ModelProcess } from './client';
import { readModelFolder, type ModelSpec } from './models';

// Real sherpa-onnx-node in a real child process, on its failure paths: a malformed model aborts
// onnxruntime, which must not take Orator down. The working path is in tiny-model.test.ts.
let root: string;
let garbage: ModelSpec;

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'orator-neural-'));
  const dir = path.join(root, 'vits-piper-en_US-broken-low');
  await mkdir(dir);
  await writeFile(path.join(dir, 'model.onnx'), 'these are not ONNX weights');
  await writeFile(path.join(dir, 'tokens.txt'), '_ 0\na 1\n');
  // Without its own espeak-ng-data the folder uses the system's (Debian package espeak-ng-data).
  garbage = (await readModelFolder(dir))!.spec;
});

it('reports a model that crashes the model process, by folder and with what it said', async () => {
  const probe = await sherpaOnnxAdapter([root], WORKER_FILE).probe();
  expect(probe.available).toBe(false);
  if (probe.available) return;
  expect(probe.reason).toContain(`${garbage.dir}: the model could not be loaded (the model process stopped (SIGABRT)`);
  expect(probe.reason).toContain('Protobuf parsing failed');
});

it('says where to put models when there are none', async () => {
  const probe = await sherpaOnnxAdapter([path.join(root, 'none')], WORKER_FILE).probe();
  expect(probe).toEqual({ available: false, reason: expect.stringMatching(/^No neural models found\. Put model folders .* in .*none\.$/) });
});

it('kills a model process that overruns its time limit with engine_timeout, and starts afresh', async () => {
  // 30 ms is less than the model process needs to start and load sherpa-onnx.
  const impatient = new ModelProcess(WORKER_FILE, { timeoutMs: 30 });
  await expect(impatient.request({ type: 'load', spec: garbage })).rejects.toMatchObject({ code: 'engine_timeout' });
  const host = new ModelProcess(WORKER_FILE);
  await expect(host.request({ type: 'load', spec: garbage })).rejects.toThrow(/model process stopped \(SIGABRT\)/);
  await expect(host.request({ type: 'load', spec: garbage })).rejects.toThrow(/model process stopped \(SIGABRT\)/);
});

it('serves interactive requests before batch ones not begun, one at a time, each crash failing only its own', async () => {
  // Every load of the malformed model ends its process: each request is a real start, load and crash.
  // All four are sent before the process has begun any: it takes the interactive one first, and the
  // batch ones queued behind each crash go to the next process.
  const host = new ModelProcess(WORKER_FILE);
  const order: string[] = [];
  const submit = (name: string, lane: 'interactive' | 'batch') =>
    host.request({ type: 'load', spec: garbage }, lane).catch(() => order.push(name));
  await Promise.all([submit('b1', 'batch'), submit('b2', 'batch'), submit('b3', 'batch'), submit('i1', 'interactive')]);
  expect(order).toEqual(['i1', 'b1', 'b2', 'b3']);
});

it('fails a request with engine_error when the model process cannot be started, without an uncaught error', async () => {
  const host = new ModelProcess(WORKER_FILE, { execPath: path.join(root, 'no-such-node') });
  const started = Date.now();
  const error = await host.request({ type: 'load', spec: garbage }).catch((e: unknown) => e);
  expect(error).toMatchObject({
    code: 'engine_error',
    message: expect.stringMatching(/^The neural model process failed: spawn .*no-such-node ENOENT$/),
  });
  expect(Date.now() - started).toBeLessThan(5000);
  // The next request tries a new process (and fails the same way, not on a dead one).
  await expect(host.request({ type: 'load', spec: garbage }, 'batch')).rejects.toMatchObject({ code: 'engine_error' });
});
