import type { ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { WORKER_FILE } from '../../testing/gateway';
import { piperShapedLength, writePiperShapedVits } from '../../testing/piper-shaped-vits';
import { tinyVitsLength, writeTinyVits } from '../../testing/tiny-vits';
import { ModelProcess } from './client';
import { readModelFolder, type ModelSpec } from './models';
import type { HostMessage } from './protocol';

// Requests sent ahead to the real model process (client.ts, host.ts): the next one waits in the
// process while the current one synthesizes. The Piper-shaped model makes a synthesis last long
// enough (hundreds of milliseconds and more) to act while it runs.

let root: string;
let slow: ModelSpec;
let quick: ModelSpec;
const SLOW_TEXT = 'the quick brown fox jumps over the lazy dog. '.repeat(3).trim();

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'orator-pipeline-'));
  slow = (await readModelFolder(await writePiperShapedVits(root)))!.spec;
  quick = (await readModelFolder(await writeTinyVits(root)))!.spec;
});
afterAll(() => rm(root, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

const synthesize = (spec: ModelSpec, text: string) => ({ type: 'synthesize' as const, spec, text, speaker: 0, speed: 1 });

/** What went to and came from the model process, in order: "sent 1", "started 1", "answered 1". */
function watch(host: ModelProcess, onStarted: (id: number, child: ChildProcess) => void = () => undefined): string[] {
  const events: string[] = [];
  const spied = host as unknown as {
    post(sent: { id: number }): void;
    received(child: ChildProcess, dir: string, message: HostMessage): void;
  };
  const post = spied.post.bind(host);
  const received = spied.received.bind(host);
  vi.spyOn(spied, 'post').mockImplementation((sent) => {
    events.push(`sent ${sent.id}`);
    post(sent);
  });
  vi.spyOn(spied, 'received').mockImplementation((child, dir, message) => {
    events.push(`${'started' in message ? 'started' : 'answered'} ${message.id}`);
    received(child, dir, message);
    if ('started' in message) onStarted(message.id, child);
  });
  return events;
}

describe('the model process with requests sent ahead', () => {
  it('has the next batch request before it answers the current one', async () => {
    const host = new ModelProcess(WORKER_FILE);
    const events = watch(host);
    const [first, second] = await Promise.all([
      host.request(synthesize(slow, 'First.'), 'batch'),
      host.request(synthesize(slow, 'Second one.'), 'batch'),
    ]);
    expect(first.samples!.length).toBe(piperShapedLength('First.'));
    expect(second.samples!.length).toBe(piperShapedLength('Second one.'));
    expect(events).toEqual(['sent 1', 'sent 2', 'started 1', 'answered 1', 'started 2', 'answered 2']);
    await host.release();
  });

  it('takes a cancelled request out of its queue: it is never synthesized', async () => {
    const host = new ModelProcess(WORKER_FILE);
    const cancel = new AbortController();
    const events = watch(host, (id) => {
      if (id === 1) cancel.abort(new Error('job deleted'));
    });
    const running = host.request(synthesize(slow, SLOW_TEXT), 'batch');
    const queued = host.request(synthesize(slow, 'Never said.'), 'batch', cancel.signal);
    await expect(queued).rejects.toThrow('job deleted');
    expect((await running).samples!.length).toBe(piperShapedLength(SLOW_TEXT));
    const next = await host.request(synthesize(quick, 'After it.'), 'batch');
    expect(next.samples!.length).toBe(tinyVitsLength('After it.'));
    expect(events.filter((e) => e.startsWith('started'))).toEqual(['started 1', 'started 3']);
    await host.release();
  });

  it('fails the request a crash stops and sends the one queued behind it to a new process', async () => {
    const host = new ModelProcess(WORKER_FILE);
    const crashed: ChildProcess[] = [];
    watch(host, (id, child) => {
      // as onnxruntime aborting mid-synthesis
      if (id === 1) {
        crashed.push(child);
        child.kill('SIGKILL');
      }
    });
    const running = host.request(synthesize(slow, SLOW_TEXT), 'batch');
    const queued = host.request(synthesize(quick, 'Still said.'), 'batch');
    await expect(running).rejects.toThrow(/^the model process stopped \(SIGKILL\)/);
    expect((await queued).samples!.length).toBe(tinyVitsLength('Still said.'));
    expect(crashed).toHaveLength(1);
    await host.release();
  });

  it('times a request from when it begins: the one queued behind a timed-out one is served', async () => {
    // 3 s: more than starting the process, far less than this synthesis (about 28 s on a quiet
    // 2-core machine; a fifth of it, 12 repeats, once finished inside the limit on CI's cores).
    const host = new ModelProcess(WORKER_FILE, { timeoutMs: 3000 });
    const long = `${SLOW_TEXT} `.repeat(60);
    const running = host.request(synthesize(slow, long), 'batch');
    const queued = host.request(synthesize(quick, 'Served after it.'), 'batch');
    await expect(running).rejects.toMatchObject({ code: 'engine_timeout' });
    expect((await queued).samples!.length).toBe(tinyVitsLength('Served after it.'));
    await host.release();
  });

  it('runs an interactive request before batch ones waiting in the process', async () => {
    const host = new ModelProcess(WORKER_FILE);
    let preview: Promise<unknown> | undefined;
    const events = watch(host, (id) => {
      if (id === 1) preview = host.request(synthesize(quick, 'A preview.'), 'interactive');
    });
    await Promise.all([host.request(synthesize(slow, SLOW_TEXT), 'batch'), host.request(synthesize(quick, 'Next chunk.'), 'batch')]);
    await preview;
    expect(events.filter((e) => e.startsWith('started'))).toEqual(['started 1', 'started 3', 'started 2']);
    await host.release();
  });
});
