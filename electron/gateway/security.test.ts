import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_ROOT, SETTINGS_PATH, TTS_ROOT } from '../contract';
import { startTestGateway, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

/** A raw request, so that the Host header can be anything (fetch does not let us set it). */
function rawGet(route: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = http.get({ host: '127.0.0.1', port: gateway.port, path: route, headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode!, body }));
    });
    request.on('error', reject);
  });
}

describe('API key', () => {
  it('is stored in the data dir, 32 random bytes as base64url, mode 0600', async () => {
    expect(gateway.apiKeyFile).toBe(path.join(gateway.dataDir, 'api-key'));
    expect(gateway.apiKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(gateway.apiKeyFile)).mode & 0o777).toBe(0o600);
  });

  it('guards every API route of the OpenAPI document, however its path is spelled', async () => {
    const doc = (await (await fetch(`${gateway.url}/api/v1/openapi.json`)).json()) as {
      paths: Record<string, Record<string, { security?: unknown[] }>>;
    };
    const operations = Object.entries(doc.paths).flatMap(([route, methods]) =>
      Object.entries(methods).map(([method, operation]) => [method.toUpperCase(), route, operation] as const),
    );
    // The routes open to all say so in the document (`security: []`), and the gateway agrees: whoami,
    // and the two listings tools read without a key (docs/SECURITY.md, "The keyless listings").
    const open = operations.filter(([, , operation]) => operation.security?.length === 0).map(([method, route]) => `${method} ${route}`);
    expect(open.sort()).toEqual(['GET /api/v1/tts/whoami', 'GET /v1/audio/models', 'GET /v1/audio/voices']);
    for (const route of open) expect((await fetch(gateway.url + route.split(' ')[1]!)).status).toBe(200);
    const routes = operations
      .filter(([, , operation]) => operation.security?.length !== 0)
      .map(([method, route]) => [method, route] as const);
    expect(routes.length).toBeGreaterThan(15);
    const id = '00000000-0000-4000-8000-000000000000';
    const spellings = (path: string) =>
      path.startsWith(`${OPENAI_ROOT}/`)
        ? [path, path.replace('/v1/', '/%76%31/'), path.replace('/v1/', '//v1/'), path.replace('/v1/', '/v1//')]
        : [path, path.replace('/api/', '/%61pi/'), path.replace('/tts/', '/%74ts/'), path.replace('/api/v1/', '/api//v1/')];
    for (const [method, route] of routes) {
      expect([TTS_ROOT, OPENAI_ROOT].some((root) => route.startsWith(`${root}/`))).toBe(true);
      const path = route.replace('{id}', route.startsWith('/api/v1/tts/engines') ? 'espeak-ng' : id).replace('{model}', 'espeak-ng');
      for (const spelled of spellings(path)) {
        for (const authorization of [undefined, 'Bearer wrong', `Basic ${gateway.apiKey}`, `Bearer ${gateway.apiKey}x`]) {
          const response = await fetch(gateway.url + spelled, {
            method,
            headers: { 'content-type': 'application/json', ...(authorization ? { authorization } : {}) },
            ...(method === 'GET' || method === 'DELETE' ? {} : { body: '{}' }),
          });
          expect([method, spelled, authorization, response.status]).toEqual([method, spelled, authorization, 401]);
          expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
          // the OpenAI dialect names it as OpenAI does; "//v1/…" is outside /v1, so Orator's shape
          const code = route.startsWith(OPENAI_ROOT) && !spelled.startsWith('//') ? 'invalid_api_key' : 'unauthorized';
          expect([spelled, await response.json()]).toMatchObject([spelled, { error: { code } }]);
        }
      }
    }
  });

  it('asks for the key on unknown API paths too', async () => {
    for (const path of ['/api/v1/tts/nothing', '/%61pi/v1/tts/nothing', '/api/v1/tts', '/v1/nothing', '/%76%31/nothing']) {
      expect((await fetch(gateway.url + path)).status).toBe(401);
    }
  });

  it('is overridable and then the stored key no longer works', async () => {
    const other = await startTestGateway({ apiKey: 'my-own-key' });
    try {
      expect((await fetch(`${other.url}/api/v1/tts/engines`, { headers: { authorization: 'Bearer my-own-key' } })).status).toBe(200);
      const stored = (await import('node:fs')).readFileSync(other.apiKeyFile, 'utf8').trim();
      expect((await fetch(`${other.url}/api/v1/tts/engines`, { headers: { authorization: `Bearer ${stored}` } })).status).toBe(401);
    } finally {
      await other.stop();
    }
  });
});

describe('Host header (DNS rebinding)', () => {
  it.each(['evil.example', `evil.example:${0}`, '127.0.0.1:1', 'localhost.evil.example'])(
    'rejects Host %s with 403 forbidden_host',
    async (host) => {
      const response = await rawGet('/api/v1/tts/engines', {
        host: host.replace(':0', `:${gateway.port}`),
        authorization: `Bearer ${gateway.apiKey}`,
      });
      expect(response.status).toBe(403);
      expect(JSON.parse(response.body)).toMatchObject({ error: { code: 'forbidden_host' } });
    },
  );

  it('rejects foreign hosts even on public routes', async () => {
    expect((await rawGet('/', { host: 'evil.example' })).status).toBe(403);
    expect((await rawGet('/api/v1/openapi.json', { host: 'evil.example' })).status).toBe(403);
  });

  it.each(['127.0.0.1', 'localhost', 'LOCALHOST'])('accepts %s with the port', async (name) => {
    const response = await rawGet('/api/v1/tts/engines', { host: `${name}:${gateway.port}`, authorization: `Bearer ${gateway.apiKey}` });
    expect(response.status).toBe(200);
  });
});

describe('network exposure', () => {
  it('binds to 127.0.0.1 only by default', () => {
    expect(gateway.url).toBe(`http://127.0.0.1:${gateway.port}`);
    expect(gateway.app.server.address()).toMatchObject({ address: '127.0.0.1' });
  });

  it('sends no CORS headers, so other origins cannot read answers', async () => {
    const response = await gateway.api('/api/v1/tts/engines', { headers: { origin: 'http://evil.example' } });
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${gateway.url}/api/v1/tts/synthesize`, {
      method: 'OPTIONS',
      headers: { origin: 'http://evil.example', 'access-control-request-method': 'POST' },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
  });
});

/**
 * The attack of the review (issue #9, finding 1): a TTS key holder set /usr/bin/vim as pico2wave,
 * then sent vim keystrokes as text; pico2wave's availability check never ran the program, so vim
 * got the text and ran a shell command. Here a program that records what reaches it stands in.
 */
describe('the TTS key cannot make Orator run a program (regression)', () => {
  const PAYLOAD = '\u001b:!touch /tmp/orator-pwned\r';

  it('refuses the setting to the key, and a program given by flag that is not pico2wave never gets text', async () => {
    const bin = await mkdtemp(path.join(os.tmpdir(), 'orator-rce-'));
    const log = path.join(bin, 'log');
    const program = path.join(bin, 'pico2wave');
    await writeFile(program, `#!/bin/sh\necho "args: $*" >> ${log}\n[ -t 0 ] || timeout 2 cat >> ${log}\n`, { mode: 0o700 });
    await chmod(program, 0o700);

    const refused = await gateway.api(SETTINGS_PATH, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ engine_executables: { pico2wave: program } }),
    });
    expect(refused.status).toBe(403);

    // whoever starts the gateway may name it: it is asked who it is, and is not pico2wave
    const started = await startTestGateway({ engineExecutables: { pico2wave: program } });
    try {
      const pico = started.registry.summaries().find((engine) => engine.id === 'pico2wave')!;
      expect(pico.available).toBe(false);
      expect(pico.reason).toMatch(/is not pico2wave/);
      const synth = await started.post('/api/v1/tts/synthesize', { text: PAYLOAD, voice: 'pico2wave:en-US' });
      expect([422, 503]).toContain(synth.status);
      const seen = await readFile(log, 'utf8').catch(() => '');
      expect(seen).toMatch(/^args: /); // it was asked who it is…
      expect(seen).not.toContain(':!touch'); // …and got no text
    } finally {
      await started.stop();
      await rm(bin, { recursive: true, force: true });
    }
  });
});
