import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ maxTextLength: 5000, bodyLimit: 64 * 1024 });
});
afterAll(() => gateway.stop());

async function expectError(pending: Response | Promise<Response>, status: number, code: string) {
  const response = await pending;
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const body = (await response.json()) as { error: { code: string; message: string } };
  expect(body.error.code).toBe(code);
  expect(body.error.message.length).toBeGreaterThan(5);
  return body.error.message;
}

describe.each(['/api/v1/tts/synthesize', '/api/v1/tts/preview'])('errors of POST %s', (route) => {
  const raw = (body: string, type?: string) => gateway.api(route, { method: 'POST', body, headers: type ? { 'content-type': type } : {} });

  it('rejects a body that is not JSON', () => expectError(raw('{"text": ', 'application/json'), 400, 'invalid_json'));
  it('rejects an empty JSON body', () => expectError(raw('', 'application/json'), 400, 'invalid_json'));
  it('rejects other content types', () => expectError(raw('text=hi', 'text/plain'), 415, 'unsupported_media_type'));
  it('rejects form bodies', () => expectError(raw('text=hi', 'application/x-www-form-urlencoded'), 415, 'unsupported_media_type'));
  it('rejects a body-less POST', () => expectError(raw(''), 415, 'unsupported_media_type'));
  it('rejects whitespace-only text', () => expectError(gateway.post(route, { text: ' \n\t ' }), 400, 'invalid_request'));
  it('rejects empty text', () => expectError(gateway.post(route, { text: '' }), 400, 'invalid_request'));
  it('rejects non-string text', () => expectError(gateway.post(route, { text: 42 }), 400, 'invalid_request'));
  it('rejects a JSON array', () => expectError(gateway.post(route, ['hi']), 400, 'invalid_request'));
  it('rejects an unknown voice', () => expectError(gateway.post(route, { text: 'hi', voice: 'espeak-ng:xx-nope' }), 422, 'unknown_voice'));
  it('rejects a voice of an unknown engine', () =>
    expectError(gateway.post(route, { text: 'hi', voice: 'nope:en' }), 422, 'unknown_voice'));
  it('rejects an unknown engine', () => expectError(gateway.post(route, { text: 'hi', engine: 'nope' }), 422, 'unknown_engine'));
  it('rejects a voice of another engine', () =>
    expectError(gateway.post(route, { text: 'hi', engine: 'espeak-ng-system', voice: 'espeak-ng:en-us' }), 422, 'unknown_voice'));
  it.each([
    ['rate', 3, '0.5 to 2'],
    ['rate', 0.1, '0.5 to 2'],
    ['pitch', 2.5, '0.5 to 2'],
    ['volume', -1, '0 to 2'],
    ['rate', 'fast', '0.5 to 2'],
  ])('rejects %s=%s with the allowed range', async (field, value, range) => {
    const message = await expectError(gateway.post(route, { text: 'hi', [field]: value }), 400, 'invalid_request');
    expect(message).toContain(range);
  });
  it('rejects a body over the size limit, naming the limit', async () => {
    const message = await expectError(gateway.post(route, { text: 'a '.repeat(40_000) }), 413, 'payload_too_large');
    expect(message).toContain(String(64 * 1024));
    expect(message).toContain('0.1 MB');
  });
});

describe('limits of POST /synthesize', () => {
  it('rejects text over the maximum length', async () => {
    const message = await expectError(gateway.post('/api/v1/tts/synthesize', { text: 'word '.repeat(1001) }), 413, 'text_too_long');
    expect(message).toContain('5000');
  });
  it('rejects an unknown mode, naming the allowed ones', async () => {
    const message = await expectError(gateway.post('/api/v1/tts/synthesize', { text: 'hi', mode: 'later' }), 400, 'invalid_request');
    expect(message).toBe('"mode" must be one of "auto", "job".');
  });
  it('refuses prototype keys', async () => {
    const body = '{"text":"hi","__proto__":{"polluted":true}}';
    const message = await expectError(
      gateway.api('/api/v1/tts/synthesize', { method: 'POST', body, headers: { 'content-type': 'application/json' } }),
      400,
      'invalid_json',
    );
    expect(message).toContain('__proto__');
  });
  it('rejects unknown fields', () => expectError(gateway.post('/api/v1/tts/synthesize', { text: 'hi', speed: 2 }), 400, 'invalid_request'));
});

describe('routing errors', () => {
  it('answers unknown routes with 404 not_found', () => expectError(gateway.api('/api/v1/tts/nothing-here'), 404, 'not_found'));
  it('answers unknown top-level routes with 404 not_found', () => expectError(gateway.api('/nothing-here.txt'), 404, 'not_found'));
  it('answers a wrong method with 405 and Allow', async () => {
    const response = await gateway.api('/api/v1/tts/synthesize');
    await expectError(response, 405, 'method_not_allowed');
    expect(response.headers.get('allow')).toBe('POST');
    await expectError(await gateway.api('/api/v1/tts/engines', { method: 'DELETE' }), 405, 'method_not_allowed');
  });
  it('answers unknown and malformed job ids with 404 job_not_found', async () => {
    await expectError(await gateway.api('/api/v1/tts/jobs/00000000-0000-4000-8000-000000000000'), 404, 'job_not_found');
    await expectError(await gateway.api('/api/v1/tts/jobs/not-a-job'), 404, 'job_not_found');
    await expectError(await gateway.api('/api/v1/tts/jobs/..%2F..%2Fetc/audio'), 404, 'job_not_found');
  });
});
