import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOB_PAGE, WHOAMI_PATH, type JobList } from '../contract';
import { startTestGateway, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

const list = async (query: string) => {
  const response = await gateway.api(`/api/v1/tts/jobs?${query}`);
  return { status: response.status, body: (await response.json()) as JobList & { error?: { code: string; message: string } } };
};

describe('query parameters, coerced from text by their schema', () => {
  it('reads ?limit as an integer, with the default page size when it is absent', async () => {
    const jobs = JOB_PAGE.default + 1;
    for (let i = 0; i < jobs; i++) {
      const response = await gateway.post('/api/v1/tts/synthesize', { text: `Job ${i}.`, mode: 'job' });
      expect(response.status).toBe(202);
    }
    const two = await list('limit=2');
    expect(two.status).toBe(200);
    expect(two.body.jobs).toHaveLength(2);
    expect(two.body.next_cursor).toBeTruthy();
    const byDefault = await list('');
    expect(byDefault.body.jobs).toHaveLength(JOB_PAGE.default);
    expect(byDefault.body.next_cursor).toBeTruthy();
    const all = await list(`limit=${JOB_PAGE.max}`);
    expect(all.body.jobs).toHaveLength(jobs);
    expect(all.body.next_cursor).toBeUndefined();
  });

  it.each(['limit=0', 'limit=201', 'limit=x', 'limit=1.5', 'limit=', 'limit=-3', 'limit=2&limit=3', 'limit=true'])(
    'refuses %s with 400 and the allowed range',
    async (query) => {
      const { status, body } = await list(query);
      expect(status).toBe(400);
      expect(body.error).toEqual({
        code: 'invalid_request',
        message: `"limit" must be an integer from ${JOB_PAGE.min} to ${JOB_PAGE.max}.`,
      });
    },
  );

  it('leaves a text parameter text: a nonce of digits is not turned into a number', async () => {
    const nonce = '1234567890123456';
    const response = await fetch(`${gateway.url}${WHOAMI_PATH}?nonce=${nonce}`);
    expect(response.status).toBe(200);
    const { proof } = (await response.json()) as { proof: string };
    expect(proof).toBe(createHmac('sha256', gateway.apiKey).update(`${gateway.instance}:${gateway.port}:${nonce}`).digest('base64url'));
  });

  it('does not coerce bodies: a number sent as text is refused', async () => {
    const response = await gateway.post('/api/v1/tts/synthesize', { text: 'Hello.', rate: '1.5' });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { error: { message: string } }).error.message).toBe(
      '"rate" must be a number from 0.5 to 2 (1 is normal).',
    );
  });
});
