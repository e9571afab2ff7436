/** SIGTERM under load, on the headless gateway as a real child process (node dist/serve.mjs). */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectSpeech } from '../testing/audio';
import { waitForJob } from '../testing/gateway';
import { exited, spawnGateway, type GatewayProcess } from '../testing/process';
import { SHUTDOWN_GRACE_MS } from './shutdown';

let dataDir: string;
const children: GatewayProcess[] = [];
beforeAll(async () => {
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-sigterm-'));
});
afterAll(async () => {
  for (const { child } of children) child.kill('SIGKILL');
  await rm(dataDir, { recursive: true, force: true });
});

async function start(): Promise<GatewayProcess> {
  const gateway = await spawnGateway(['--data-dir', dataDir, '--workers', '2']);
  children.push(gateway);
  return gateway;
}

const INLINE_TEXT = 'The listener closes, and every sentence already asked for is still spoken to the end. '.repeat(5);

it('SIGTERM: the listener closes, in-flight inline requests are answered, jobs resume after a restart', async () => {
  const first = await start();
  const queued = await first.api('/api/v1/tts/synthesize', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ text: 'A chapter that outlives the gateway. '.repeat(80), mode: 'job' }),
  });
  expect(queued.status).toBe(202);
  const { job_id } = (await queued.json()) as { job_id: string };

  const answeredAt: number[] = [];
  const inline = Array.from({ length: 10 }, async () => {
    const response = await first.api('/api/v1/tts/synthesize', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text: INLINE_TEXT }),
    });
    const audio = Buffer.from(await response.arrayBuffer());
    answeredAt.push(Date.now());
    return { status: response.status, audio };
  });
  await new Promise((resolve) => setTimeout(resolve, 300));
  const signalled = Date.now();
  first.child.kill('SIGTERM');
  const exit = new Promise<number | null>((resolve) => first.child.once('exit', (code) => resolve(code)));

  // the listener closes at once: a new connection is refused while the requests in flight go on
  await new Promise((resolve) => setTimeout(resolve, 150));
  const late = await fetch(`${first.url}/api/v1/tts/engines`).then(
    (r) => `answered ${r.status}`,
    (error: Error & { cause?: { code?: string } }) => error.cause?.code,
  );
  const pendingWhenRefused = 10 - answeredAt.length;

  const answers = await Promise.all(inline);
  const code = await exit;
  const drainMs = Date.now() - signalled;
  const afterSignal = answeredAt.filter((t) => t > signalled).length;
  const lastAnswerMs = Math.max(...answeredAt) - signalled;
  console.log(
    `SIGTERM → exit ${code} in ${drainMs} ms; ${afterSignal} of 10 inline answers came after the signal, the last ${lastAnswerMs} ms after it`,
  );

  expect(late).toBe('ECONNREFUSED');
  expect(pendingWhenRefused).toBeGreaterThan(0);
  expect(afterSignal).toBeGreaterThan(0);
  expect(answers.map((a) => a.status)).toEqual(Array(10).fill(200));
  for (const { audio } of answers) expectSpeech(audio, { minSeconds: 5 });
  expect(code).toBe(0);
  // done soon after the last answer is out (closing the store and the workers follows it, slower
  // on a loaded machine): the grace is a bound, not a wait
  expect(drainMs - lastAnswerMs).toBeLessThan(SHUTDOWN_GRACE_MS / 2);
  expect(drainMs).toBeLessThan(SHUTDOWN_GRACE_MS + 3000);

  const second = await start();
  const job = await waitForJob(second, job_id);
  expect(job.status).toBe('done');
  expectSpeech(Buffer.from(await (await second.api(`/api/v1/tts/jobs/${job_id}/audio`)).arrayBuffer()), { minSeconds: 60 });
  second.child.kill('SIGTERM');
  expect(await new Promise((resolve) => second.child.once('exit', resolve))).toBe(0);
  await exited(second.child);
});
