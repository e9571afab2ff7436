/**
 * SSML jobs on worker hosts: a chunk's own prosody travels with its task; a job of several voices
 * is refused, since hosts take a job's chunks by the job's voice (docs/ssml.md).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectSpeech } from '../../testing/audio';
import { waitForJob } from '../../testing/gateway';
import { exited, spawnGateway, spawnWorkerHost, type GatewayProcess } from '../../testing/process';
import { redisMissing, startRedis, type TestRedis } from '../../testing/redis';

const skipReason = redisMissing();
if (skipReason) console.log(`Skipped: ${skipReason}.`);

let redis: TestRedis | undefined;
let dataDir: string | undefined;
const children: { child: GatewayProcess['child'] }[] = [];
afterAll(async () => {
  for (const { child } of children) child.kill('SIGKILL');
  await Promise.all(children.map(({ child }) => exited(child)));
  await redis?.stop();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

const SENTENCE = 'This sentence is read by a worker host at the pace the markup asks for.';

describe.skipIf(skipReason)('SSML on worker hosts', () => {
  it('carries each chunk’s prosody to the host and refuses a job of several voices', { timeout: 300_000 }, async () => {
    redis = await startRedis();
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-ssml-hosts-'));
    const gateway = await spawnGateway(['--data-dir', dataDir, '--queue', redis.url, '--workers', '1']);
    children.push(gateway);
    const host = await spawnWorkerHost([
      ...['--queue', redis.url, '--gateway', gateway.url, '--worker-token-file', path.join(dataDir, 'worker-token')],
      ...['--name', 'host', '--concurrency', '1'],
    ]);
    children.push(host);
    const job = async (markup: string) => {
      const response = await gateway.api('/api/v1/tts/synthesize', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ text: markup, text_type: 'ssml', mode: 'job' }),
      });
      return response;
    };
    const seconds = async (markup: string) => {
      const response = await job(markup);
      expect(response.status).toBe(202);
      const { job_id: id } = (await response.json()) as { job_id: string };
      expect(await waitForJob(gateway, id, 240_000)).toMatchObject({ status: 'done' });
      return expectSpeech(Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${id}/audio`)).arrayBuffer()));
    };
    const normal = await seconds(`<speak>${SENTENCE}</speak>`);
    const slow = await seconds(`<speak><prosody rate="x-slow">${SENTENCE}</prosody></speak>`);
    expect(slow).toBeGreaterThan(normal * 1.5);

    const twoVoices = await job(`<speak>${SENTENCE} <voice name="espeak-ng:de">Guten Tag.</voice></speak>`);
    expect(twoVoices.status).toBe(400);
    expect(await twoVoices.json()).toMatchObject({ error: { code: 'invalid_request' } });
  });
});
