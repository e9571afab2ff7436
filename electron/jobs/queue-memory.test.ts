import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { expectSpeech } from '../testing/audio';
import { prose } from '../testing/prose';
import { useTestGateways, waitForJob, type TestGateway } from '../testing/gateway';

const gateways = useTestGateways();

// A full collection before each reading, so that the heap holds only what is still referenced.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const heapUsed = () => {
  collectGarbage();
  return process.memoryUsage().heapUsed;
};

const JOBS = 200;
const CHARS = 100_000;
const MB = 1024 * 1024;

async function queueJobs(gateway: TestGateway): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < JOBS; i++) {
    // each job's text is its own string, as it would be from 200 clients; the last one is short, to be heard
    const text = i === JOBS - 1 ? 'The last job of the queue.' : `Job ${i}. ${prose(CHARS)}`;
    const response = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job' });
    expect(response.status).toBe(202);
    ids.push(((await response.json()) as { job_id: string }).job_id);
  }
  return ids;
}

describe('queued jobs in memory', () => {
  // 200 jobs × 100,000 characters: held in memory, their pending text alone would be 20 MB of heap.
  it('hold no chunk text while they wait, nor after a restart takes them up again', async () => {
    // about heap, not disk: 200 such jobs reserve ~88 GB in the disk ledger (tested in disk-ledger.test.ts)
    const noFloor = { minFreeBytes: -(2 ** 50) };
    const first = await gateways.start({ workers: 1, maxQueuedChars: 100_000_000, ...noFloor });
    first.pauseQueue();
    // one job first, so that compiling the code it runs is not counted
    const warmUp = await first.post('/api/v1/tts/synthesize', { text: prose(CHARS), mode: 'job' });
    const before = heapUsed();
    const ids = await queueJobs(first);
    ids.unshift(((await warmUp.json()) as { job_id: string }).job_id);
    const whileQueued = heapUsed() - before;
    expect(whileQueued).toBeLessThan(4 * MB);

    await gateways.close(first);
    const beforeRestart = heapUsed();
    const second = await gateways.start({ dataDir: first.dataDir, workers: 1, maxQueuedChars: 100_000_000, ...noFloor });
    second.pauseQueue();
    const afterRecover = heapUsed() - beforeRestart;
    // a whole gateway start (Fastify, engine probes) is in this figure too
    expect(afterRecover).toBeLessThan(12 * MB);
    console.log(
      `heap: +${(whileQueued / MB).toFixed(1)} MB with ${JOBS} × ${CHARS} characters queued, ` +
        `+${(afterRecover / MB).toFixed(1)} MB for a restart that takes them up`,
    );

    // the text is still there: a chunk read at dispatch gives its job audio
    const last = ids.pop()!;
    for (const id of ids) await second.api(`/api/v1/tts/jobs/${id}`, { method: 'DELETE' });
    second.resumeQueue();
    expect((await waitForJob(second, last)).status).toBe('done');
    expectSpeech(Buffer.from(await (await second.api(`/api/v1/tts/jobs/${last}/audio`)).arrayBuffer()), { minSeconds: 1 });
  }, 300_000);
});
