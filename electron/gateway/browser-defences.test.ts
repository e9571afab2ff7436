import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../contract';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { appProtocolHandler } from '../shell/app-protocol';

let gateway: TestGateway;
beforeAll(async () => {
  // the built studio, as `npm run serve` and the desktop app serve it
  gateway = await startTestGateway({ staticDir: path.resolve('dist/renderer') });
});
afterAll(() => gateway.stop());

const directives = (csp: string) => Object.fromEntries(csp.split('; ').map((d) => [d.split(' ')[0]!, d.split(' ').slice(1).join(' ')]));

describe('the web studio', () => {
  it.each(['/', '/index.html', '/audio-auth-sw.js', '/favicon.svg', '/no-such-file.js'])(
    '%s carries the desktop window’s CSP with the gateway as self, no framing, nosniff and no referrer',
    async (route) => {
      const response = await fetch(gateway.url + route);
      const csp = response.headers.get('content-security-policy');
      expect(csp).toBe(contentSecurityPolicy("'self'"));
      expect(directives(csp!)).toMatchObject({
        'default-src': "'none'",
        'script-src': "'self'",
        'connect-src': "'self'",
        'frame-ancestors': "'none'",
      });
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('no-referrer');
    },
  );

  it('has the same policy as the desktop window, but for the origin of the gateway', async () => {
    const origin = new URL(gateway.url).origin;
    const desktop = await appProtocolHandler('dist/renderer', origin)(new Request('app://orator/index.html'));
    expect(desktop.status).toBe(200);
    expect(desktop.headers.get('content-security-policy')).toBe(contentSecurityPolicy(origin));
    expect(desktop.headers.get('x-content-type-options')).toBe('nosniff');
    expect(desktop.headers.get('referrer-policy')).toBe('no-referrer');
    const web = (await fetch(`${gateway.url}/`)).headers.get('content-security-policy')!;
    expect(desktop.headers.get('content-security-policy')!.replaceAll(origin, "'self'")).toBe(web);
  });
});

describe('API answers', () => {
  it.each([
    ['a success', '/api/v1/tts/engines', true],
    ['a refusal without key', '/api/v1/tts/engines', false],
    ['an unknown API route', '/api/v1/tts/nothing', true],
    ['the OpenAPI document', '/api/v1/openapi.json', false],
    ['whoami', '/api/v1/tts/whoami', false],
  ])('%s: nosniff and no referrer', async (_name, route, withKey) => {
    const response = withKey ? await gateway.api(route) : await fetch(gateway.url + route);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('referrer-policy')).toBe('no-referrer');
  });

  it('audio and an event stream too', async () => {
    const inline = await gateway.post('/api/v1/tts/synthesize', { text: 'Headers.' });
    expect(inline.headers.get('content-type')).toBe('audio/wav');
    expect(inline.headers.get('x-content-type-options')).toBe('nosniff');
    const controller = new AbortController();
    const events = await gateway.api('/api/v1/tts/events', { signal: controller.signal });
    expect(events.headers.get('content-type')).toContain('text/event-stream');
    expect(events.headers.get('x-content-type-options')).toBe('nosniff');
    expect(events.headers.get('referrer-policy')).toBe('no-referrer');
    controller.abort();
  });
});
