/** The cross-cutting plugins' order is checked at registration (fastify-plugin's dependencies, avvio), not remembered. */
import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { auth } from './auth';
import { desktopOrigin } from './desktop-origin';
import { errorHandling } from './errors';
import { hostCheck } from './host-check';
import { securityHeaders } from './security-headers';
import { requestLog } from '../request-log';

const credentials = { apiKey: () => 'key', adminToken: () => 'admin' };

describe('plugin order', () => {
  it('refuses the key check registered before the Host check and the desktop CORS', async () => {
    const app = Fastify();
    await expect(app.register(auth, credentials)).rejects.toThrow(/dependency.*orator-host-check.*orator-auth.*not registered/i);
  });

  it('refuses the Host check before the browser headers and the error handler', async () => {
    const app = Fastify();
    await app.register(requestLog, {});
    await expect(app.register(hostCheck, { hosts: () => new Set() })).rejects.toThrow(/orator-security-headers/);
  });

  it('accepts them in their order', async () => {
    const app = Fastify();
    await app.register(requestLog, {});
    await app.register(securityHeaders);
    await app.register(errorHandling, { bodyLimit: 1024 });
    await app.register(hostCheck, { hosts: () => new Set(['localhost:80']) });
    await app.register(desktopOrigin);
    await app.register(auth, credentials);
    app.get('/api/v1/tts/x', async () => ({ ok: true }));
    const refused = await app.inject({ url: '/api/v1/tts/x', headers: { host: 'evil.example' } });
    expect([refused.statusCode, refused.json().error.code]).toEqual([403, 'forbidden_host']);
    expect(refused.headers['x-content-type-options']).toBe('nosniff');
    const unkeyed = await app.inject({ url: '/api/v1/tts/x', headers: { host: 'localhost:80' } });
    expect(unkeyed.statusCode).toBe(401);
    const keyed = await app.inject({ url: '/api/v1/tts/x', headers: { host: 'localhost:80', authorization: 'Bearer key' } });
    expect(keyed.json()).toEqual({ ok: true });
  });
});
