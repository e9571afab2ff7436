/**
 * SSML jobs on worker hosts: a chunk's own prosody travels with its task; a job of several voices
 * is refused, since hosts take a job's chunks by the job's voice (docs/ssml.md).
 */
import { describe, expect, it } from 'vitest';
import { expectSpeech } from '../../testing/audio';
import { waitForJob } from '../../testing/gateway';
import { redisMissing, useRedisQueue } from '../../testing/redis';

const skipReason = redisMissing();
if (skipReason) console.log(`Skipped: ${skipReason}.`);

const queue = useRedisQueue('orator-ssml-hosts-');

const SENTENCE = 'This sentence is read by a worker host at the pace the markup asks for.';

describe.skipIf(skipReason)('SSML on worker hosts', () => {
  it('carries each chunk’s prosody to the host and refuses a job of several voices', { timeout: 300_000 }, async () => {
    const { gateway } = await queue.start();
    await queue.host(gateway, 'host', ['--concurrency', '1']);
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
