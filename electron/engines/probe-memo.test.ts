import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineDetail } from '../contract';
import { expectSpeech } from '../testing/audio';
import { useTestGateways, WORKER_FILE } from '../testing/gateway';
import { espeakWasmAdapter } from './espeak-ng/adapter';
import { filesFingerprint } from './probe-memo';
import { EmbeddedPool } from './worker-pool';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-probe-memo-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('a start-up probe in a process that probed before', () => {
  const gateways = useTestGateways();

  it('reuses what Festival answered while its program is unchanged; a refresh, a changed or a removed program probes again', async () => {
    // the real text2wave, behind a script that notes each voice listing (its identity question)
    const log = path.join(dir, 'asked.log');
    const text2wave = path.join(dir, 'text2wave');
    const writeProgram = async () => {
      await writeFile(text2wave, `#!/bin/sh\ncase "$*" in *orator:*) echo asked >> '${log}';; esac\nexec /usr/bin/text2wave "$@"\n`);
      await chmod(text2wave, 0o755);
    };
    await writeProgram();
    const asked = async () => (await readFile(log, 'utf8').catch(() => '')).split('\n').filter(Boolean).length;
    const config = { engineExecutables: { festival: text2wave } };
    const festival = async (gateway: { api: (route: string) => Promise<Response> }) =>
      (await (await gateway.api('/api/v1/tts/engines/festival')).json()) as EngineDetail;

    const first = await gateways.start(config);
    const listed = await festival(first);
    expect(listed).toMatchObject({ available: true, defaultVoice: 'festival:cmu_us_slt_arctic_hts' });
    expect(await asked()).toBe(1);
    await gateways.close(first);

    const second = await gateways.start(config);
    expect(await festival(second)).toEqual(listed);
    expect(await asked()).toBe(1);
    // the kept answer synthesizes with the vetted program
    const response = await second.post('/api/v1/tts/synthesize', { text: 'Hello again.', voice: 'festival:kal_diphone' });
    expect(response.status).toBe(200);
    expectSpeech(Buffer.from(await response.arrayBuffer()), { minSeconds: 0.3, maxSeconds: 5 });

    expect((await second.api('/api/v1/tts/engines/festival/refresh', { method: 'POST' })).status).toBe(200);
    expect(await asked()).toBe(2);
    await gateways.close(second);

    await writeProgram(); // the same bytes written again: a new change time
    await gateways.close(await gateways.start(config));
    expect(await asked()).toBe(3);

    await rm(text2wave);
    const removed = await gateways.start(config);
    expect(await festival(removed)).toMatchObject({ available: false, voices: [] });
  }, 180_000); // five gateway starts, three with every probe

  it('reuses an embedded engine’s voices without loading it on a listing thread; a refresh loads it', async () => {
    const pools = [0, 1, 2].map(() => new EmbeddedPool({ workerFile: WORKER_FILE, threads: 1 }));
    try {
      const [first, second, third] = pools.map((pool) => ({ pool, engine: espeakWasmAdapter(pool) }));
      const listed = await first!.engine.probe({ reuse: true });
      expect(listed).toMatchObject({ available: true, defaultVoice: 'espeak-ng:en-us' });
      expect(await second!.engine.probe({ reuse: true })).toEqual(listed);
      const withoutListing = second!.pool.liveThreads;
      expect(await third!.engine.probe()).toEqual(listed);
      // the refresh's listing thread stays a moment after it answered
      expect(third!.pool.liveThreads).toBe(withoutListing + 1);
      // synthesis loads the engine where it runs, listed or not
      const pcm = await second!.engine.synthesize(
        { text: 'Hello.', voice: 'en-us', rate: 1, pitch: 1, volume: 1 },
        { lane: 'interactive', signal: new AbortController().signal },
      );
      expect(pcm.samples.some((s) => Math.abs(s) > 1000)).toBe(true);
    } finally {
      await Promise.all(pools.map((pool) => pool.close()));
    }
  });
});

describe('filesFingerprint', () => {
  it('changes when a voice is added in a folder of a listed folder, a mode changes, a file appears, or the engines’ environment does', async () => {
    const voices = path.join(dir, 'voices');
    await mkdir(path.join(voices, 'english'), { recursive: true });
    const extra = path.join(dir, 'festivalrc');
    const fingerprint = () => filesFingerprint([voices, extra]);
    const before = await fingerprint();
    expect(await fingerprint()).toBe(before);

    await mkdir(path.join(voices, 'english', 'new_voice'));
    const added = await fingerprint();
    expect(added).not.toBe(before);

    await chmod(path.join(voices, 'english'), 0o700);
    const moded = await fingerprint();
    expect(moded).not.toBe(added);

    await writeFile(extra, '(set! x 1)');
    const appeared = await fingerprint();
    expect(appeared).not.toBe(moded);

    const home = process.env.HOME;
    process.env.HOME = dir;
    try {
      expect(await fingerprint()).not.toBe(appeared);
    } finally {
      process.env.HOME = home;
    }
  });
});
