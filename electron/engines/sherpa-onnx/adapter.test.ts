import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, expect, it } from 'vitest';
import { WORKER_FILE } from '../../testing/gateway';
import { sherpaOnnxAdapter } from './adapter';
import { ModelProcess } from './client';
import { readModelFolder, type ModelSpec } from './models';

// Real sherpa-onnx-node in a real child process; no real model weights can be had here, so these
// are the failure paths: a malformed model aborts onnxruntime, which must not take Orator down.
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
  const impatient = new ModelProcess(WORKER_FILE, 30);
  await expect(impatient.request({ type: 'load', spec: garbage })).rejects.toMatchObject({ code: 'engine_timeout' });
  const host = new ModelProcess(WORKER_FILE);
  await expect(host.request({ type: 'load', spec: garbage })).rejects.toThrow(/model process stopped \(SIGABRT\)/);
  await expect(host.request({ type: 'load', spec: garbage })).rejects.toThrow(/model process stopped \(SIGABRT\)/);
});
