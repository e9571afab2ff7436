/**
 * The auth matrix: every route of the served OpenAPI document (and HEAD of each GET), plus the
 * public routes (the OpenAPI document, the studio's files), against every way of presenting a
 * key wrongly, against the admin token and against foreign Host headers. A route's row is the
 * credentials that open it (from the document's `security`), a column a credential and what it
 * is: the TTS key opens speech, the admin token opens settings, neither opens the other's routes.
 */
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPENAI_ROOT, OPENAPI_PATH, TTS_ROOT } from '../contract';
import { apiRoutes, readsBody, routePath, type ApiRoute } from '../testing/api-routes';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { isError, outcomeOf } from '../testing/judge-answer';
import { send, type RawRequest } from '../testing/raw-http';

/** A security scheme of the document: the TTS key or the admin token. */
type Scheme = 'bearer' | 'admin';

interface Credential {
  name: string;
  /** Headers and query string presenting `key` (the gateway's current key). */
  present(key: string, adminToken: string): { headers?: Record<string, string>; query?: string };
  /** What the gateway should take it for; none: no credential at all. */
  is?: Scheme;
}

const CREDENTIALS: Credential[] = [
  { name: 'no key', present: () => ({}) },
  { name: 'a wrong key', present: () => ({ headers: { authorization: 'Bearer wrong-key' } }) },
  { name: 'the key and one more character', present: (key) => ({ headers: { authorization: `Bearer ${key}x` } }) },
  {
    name: 'the key less its last character',
    present: (key) => ({ headers: { authorization: `Bearer ${key.slice(0, -1)}` } }),
  },
  { name: 'the key twice', present: (key) => ({ headers: { authorization: `Bearer ${key} ${key}` } }) },
  { name: 'the key without a scheme', present: (key) => ({ headers: { authorization: key } }) },
  { name: 'the key in the Basic scheme', present: (key) => ({ headers: { authorization: `Basic ${key}` } }) },
  {
    name: 'the key as Basic credentials',
    present: (key) => ({ headers: { authorization: `Basic ${Buffer.from(`orator:${key}`).toString('base64')}` } }),
  },
  {
    name: 'the key in the query string',
    present: (key) => ({ query: `key=${key}&api_key=${key}&access_token=${key}&token=${key}` }),
  },
  {
    name: 'the key in cookies',
    present: (key) => ({ headers: { cookie: `key=${key}; api_key=${key}; orator_key=${key}` } }),
  },
  { name: 'the key in X-API-Key', present: (key) => ({ headers: { 'x-api-key': key, 'x-orator-key': key } }) },
  {
    name: 'the key in Proxy-Authorization',
    present: (key) => ({ headers: { 'proxy-authorization': `Bearer ${key}` } }),
  },
  {
    name: 'the admin token as Basic credentials',
    present: (_key, token) => ({ headers: { authorization: `Basic ${Buffer.from(`orator:${token}`).toString('base64')}` } }),
  },
  { name: 'the key', present: (key) => ({ headers: { authorization: `Bearer ${key}` } }), is: 'bearer' },
  { name: 'the admin token', present: (_key, token) => ({ headers: { authorization: `Bearer ${token}` } }), is: 'admin' },
];

/** Host headers of other sites (DNS rebinding): refused on every route, public ones too, whatever the key. */
const FOREIGN_HOSTS = (port: number) => ['evil.example', `127.0.0.1.evil.example:${port}`, `localhost:${port + 1}`];

interface Row {
  method: string;
  path: string;
  /** The credentials that open it; none: public. */
  opens: Scheme[];
}

/** Orator's API and the OpenAI-compatible dialect: the key guards both. */
const API_ROOTS = [TTS_ROOT, OPENAI_ROOT];

/** Public: what the document marks `security: []`, a whoami route, and everything outside the API roots. */
function opensOf(route: ApiRoute): Scheme[] {
  const inApi = API_ROOTS.some((root) => route.template.startsWith(`${root}/`));
  return route.public || route.template.endsWith('/whoami') || !inApi ? [] : (route.schemes as Scheme[]);
}

/** What a credential should get on a route: through, 403 admin_required (the TTS key on a settings change), or 401. */
function expected(credential: Credential, row: Row): 'through' | 'admin_required' | 'unauthorized' {
  if (row.opens.length === 0 || (credential.is && row.opens.includes(credential.is))) return 'through';
  return credential.is === 'bearer' && row.opens.includes('admin') ? 'admin_required' : 'unauthorized';
}

let gateway: TestGateway;
let rows: Row[];

beforeAll(async () => {
  const staticDir = path.resolve('dist/renderer');
  gateway = await startTestGateway({ staticDir });
  const routes = await apiRoutes(gateway.url);
  const api = routes.flatMap((route) => {
    const row = { path: routePath(route, { engines: 'espeak-ng', models: 'espeak-ng' }), opens: opensOf(route) };
    return route.method === 'GET'
      ? [
          { ...row, method: 'GET' },
          { ...row, method: 'HEAD' },
        ]
      : [{ ...row, method: route.method }];
  });
  const asset = `/assets/${readdirSync(path.join(staticDir, 'assets'))[0]}`;
  const publicPaths = [OPENAPI_PATH, '/', '/index.html', asset];
  rows = [...api, ...publicPaths.flatMap((p) => ['GET', 'HEAD'].map((method) => ({ method, path: p, opens: [] })))];
});
afterAll(() => gateway.stop());

function request(row: Row, headers: Record<string, string>, query?: string): RawRequest {
  const target = query ? `${row.path}?${query}` : row.path;
  const body = readsBody(row) ? { body: '{}', headers: { 'content-type': 'application/json', ...headers } } : { headers };
  return { method: row.method, path: target, ...body };
}

describe('auth matrix', () => {
  it('answers 401 with WWW-Authenticate to every wrong way of presenting a credential, 403 to the key on settings changes', async () => {
    expect(rows.filter((r) => r.opens.includes('bearer')).length).toBeGreaterThan(20);
    expect(rows.filter((r) => r.path.startsWith(`${OPENAI_ROOT}/`) && r.opens.includes('bearer')).length).toBe(5);
    // settings, the key, and the voice library's install, remove and refresh
    expect(rows.filter((r) => r.opens.length === 1 && r.opens[0] === 'admin').length).toBe(5);
    expect(rows.filter((r) => r.opens.length === 0).length).toBeGreaterThanOrEqual(8);
    const failures: string[] = [];
    for (const credential of CREDENTIALS) {
      for (const row of rows) {
        const key = gateway.apiKey;
        const { headers = {}, query } = credential.present(key, gateway.adminToken);
        const reply = await send(gateway.port, request(row, headers, query));
        const outcome = outcomeOf(reply, row.method);
        const where = `${credential.name} | ${row.method} ${row.path}`;
        const want = expected(credential, row);
        if (outcome.problem) failures.push(`${where}: ${outcome.problem}`);
        else if (want === 'through') {
          // POST /settings/api-key replaced the key while this was answered: that is the key working
          if (outcome.status === 401 && gateway.apiKey !== key) continue;
          if (outcome.status === 401 || outcome.status === 403) failures.push(`${where}: refused (${outcome.status} ${outcome.code})`);
          if (row.opens.length === 0 && outcome.status !== 200) failures.push(`${where}: public route answered ${outcome.status}`);
        } else if (want === 'admin_required') {
          if (outcome.status !== 403 || (row.method !== 'HEAD' && !isError(outcome, 'admin_required'))) {
            failures.push(`${where}: got ${outcome.status} ${outcome.code ?? ''}, expected 403 admin_required`);
          }
        } else if (outcome.status !== 401 || (row.method !== 'HEAD' && !isError(outcome, 'unauthorized'))) {
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
        if (outcome.problem || outcome.status !== 403 || (row.method !== 'HEAD' && !isError(outcome, 'forbidden_host'))) {
          failures.push(`${host} | ${row.method} ${row.path}: got ${outcome.status} ${outcome.code ?? outcome.problem ?? ''}`);
        }
      }
    }
    expect(failures).toEqual([]);
  });
});
