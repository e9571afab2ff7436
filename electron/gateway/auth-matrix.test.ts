/**
 * The auth matrix: every route of the served OpenAPI document (and HEAD of each GET), plus the
 * public routes (the OpenAPI document, the studio's files), against every way of presenting a
 * key wrongly and against foreign Host headers. A route's row is its access level, a column a
 * credential and the levels it grants: to add a credential (an admin token), add a column and,
 * in accessOf, the routes it guards.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAPI_PATH, TTS_ROOT } from '../contract';
import { apiRoutes, readsBody, routePath, type ApiRoute } from '../testing/api-routes';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { outcomeOf } from '../testing/judge-answer';
import { send, type RawRequest } from '../testing/raw-http';

type Access = 'public' | 'tts';

interface Credential {
  name: string;
  /** Headers and query string presenting `key` (the gateway's current key). */
  present(key: string): { headers?: Record<string, string>; query?: string };
  grants: Access[];
}

const CREDENTIALS: Credential[] = [
  { name: 'no key', present: () => ({}), grants: ['public'] },
  { name: 'a wrong key', present: () => ({ headers: { authorization: 'Bearer wrong-key' } }), grants: ['public'] },
  { name: 'the key and one more character', present: (key) => ({ headers: { authorization: `Bearer ${key}x` } }), grants: ['public'] },
  {
    name: 'the key less its last character',
    present: (key) => ({ headers: { authorization: `Bearer ${key.slice(0, -1)}` } }),
    grants: ['public'],
  },
  { name: 'the key twice', present: (key) => ({ headers: { authorization: `Bearer ${key} ${key}` } }), grants: ['public'] },
  { name: 'the key without a scheme', present: (key) => ({ headers: { authorization: key } }), grants: ['public'] },
  { name: 'the key in the Basic scheme', present: (key) => ({ headers: { authorization: `Basic ${key}` } }), grants: ['public'] },
  {
    name: 'the key as Basic credentials',
    present: (key) => ({ headers: { authorization: `Basic ${Buffer.from(`orator:${key}`).toString('base64')}` } }),
    grants: ['public'],
  },
  {
    name: 'the key in the query string',
    present: (key) => ({ query: `key=${key}&api_key=${key}&access_token=${key}&token=${key}` }),
    grants: ['public'],
  },
  {
    name: 'the key in cookies',
    present: (key) => ({ headers: { cookie: `key=${key}; api_key=${key}; orator_key=${key}` } }),
    grants: ['public'],
  },
  { name: 'the key in X-API-Key', present: (key) => ({ headers: { 'x-api-key': key, 'x-orator-key': key } }), grants: ['public'] },
  {
    name: 'the key in Proxy-Authorization',
    present: (key) => ({ headers: { 'proxy-authorization': `Bearer ${key}` } }),
    grants: ['public'],
  },
  { name: 'the key', present: (key) => ({ headers: { authorization: `Bearer ${key}` } }), grants: ['public', 'tts'] },
];

/** Host headers of other sites (DNS rebinding): refused on every route, public ones too, whatever the key. */
const FOREIGN_HOSTS = (port: number) => ['evil.example', `127.0.0.1.evil.example:${port}`, `localhost:${port + 1}`];

interface Row {
  method: string;
  path: string;
  access: Access;
}

/** Public: what the document marks `security: []`, a whoami route, and everything outside the API root. */
function accessOf(route: ApiRoute): Access {
  return route.public || route.template.endsWith('/whoami') || !route.template.startsWith(TTS_ROOT) ? 'public' : 'tts';
}

let gateway: TestGateway;
let rows: Row[];

beforeAll(async () => {
  const staticDir = path.resolve('dist/renderer');
  gateway = await startTestGateway({ staticDir });
  const routes = await apiRoutes(gateway.url);
  const api = routes.flatMap((route) => {
    const row = { path: routePath(route, { engines: 'espeak-ng' }), access: accessOf(route) };
    return route.method === 'GET'
      ? [
          { ...row, method: 'GET' },
          { ...row, method: 'HEAD' },
        ]
      : [{ ...row, method: route.method }];
  });
  const asset = `/assets/${readdirSync(path.join(staticDir, 'assets'))[0]}`;
  const publicPaths = [OPENAPI_PATH, '/', '/index.html', asset];
  rows = [...api, ...publicPaths.flatMap((p) => ['GET', 'HEAD'].map((method) => ({ method, path: p, access: 'public' as const })))];
});
afterAll(() => gateway.stop());

function request(row: Row, headers: Record<string, string>, query?: string): RawRequest {
  const target = query ? `${row.path}?${query}` : row.path;
  const body = readsBody(row) ? { body: '{}', headers: { 'content-type': 'application/json', ...headers } } : { headers };
  return { method: row.method, path: target, ...body };
}

describe('auth matrix', () => {
  it('answers 401 with WWW-Authenticate to every wrong way of presenting the key, on every API route', async () => {
    expect(rows.filter((r) => r.access === 'tts').length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.access === 'public').length).toBeGreaterThanOrEqual(8);
    const failures: string[] = [];
    for (const credential of CREDENTIALS) {
      for (const row of rows) {
        const key = gateway.apiKey;
        const { headers = {}, query } = credential.present(key);
        const reply = await send(gateway.port, request(row, headers, query));
        const outcome = outcomeOf(reply, row.method);
        const where = `${credential.name} | ${row.method} ${row.path}`;
        if (outcome.problem) failures.push(`${where}: ${outcome.problem}`);
        else if (credential.grants.includes(row.access)) {
          // POST /settings/api-key replaced the key while this was answered: that is the key working
          if (outcome.status === 401 && gateway.apiKey !== key) continue;
          if (outcome.status === 401 || outcome.status === 403) failures.push(`${where}: refused (${outcome.status} ${outcome.code})`);
          if (row.access === 'public' && outcome.status !== 200) failures.push(`${where}: public route answered ${outcome.status}`);
        } else if (outcome.status !== 401 || (row.method !== 'HEAD' && outcome.code !== 'unauthorized')) {
          failures.push(`${where}: got ${outcome.status} ${outcome.code ?? ''}, expected 401 unauthorized`);
        } else if (!/^Bearer realm="orator"$/.test(String(reply.headers['www-authenticate']))) {
          failures.push(`${where}: WWW-Authenticate is ${reply.headers['www-authenticate']}`);
        }
      }
    }
    console.log(`auth matrix: ${CREDENTIALS.length} credentials × ${rows.length} routes = ${CREDENTIALS.length * rows.length} requests`);
    expect(failures).toEqual([]);
  });

  it('answers 403 forbidden_host to foreign Host headers on every route, public ones included, even with the key', async () => {
    const failures: string[] = [];
    for (const host of FOREIGN_HOSTS(gateway.port)) {
      for (const row of rows) {
        const reply = await send(gateway.port, request(row, { host, authorization: `Bearer ${gateway.apiKey}` }));
        const outcome = outcomeOf(reply, row.method);
        if (outcome.problem || outcome.status !== 403 || (row.method !== 'HEAD' && outcome.code !== 'forbidden_host')) {
          failures.push(`${host} | ${row.method} ${row.path}: got ${outcome.status} ${outcome.code ?? outcome.problem ?? ''}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
