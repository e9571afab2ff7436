/**
 * Test support: the hostile requests of the bad-input matrix, by class, for any route of the
 * OpenAPI document, each with the answer it must get. Derived from the route (its method, path
 * parameters, query parameters and body schema), so a new route gets its cases without edits.
 */
import type { ErrorCode } from '../contract';
import { readsBody, sampleBody, type ApiRoute, type JsonSchema } from './api-routes';
import type { RawRequest } from './raw-http';

/**
 * What a hostile request must get: one of these errors; or, when the route does not read the
 * hostile part (a body sent to GET, an unknown query parameter), what it answers a clean request
 * (a success for a success, the same error code for an error); or a success; `orCodes` allowed too.
 */
export type Expected = { codes: ErrorCode[] } | { baseline: true; orCodes?: ErrorCode[] } | { success: true; orCodes?: ErrorCode[] };

/** Request line, headers and body as bytes, for malformed HTTP; `auth` holds the Host and Authorization lines. */
export type RawBytes = (auth: string) => Buffer | string;

export interface HostileCase {
  class: string;
  name: string;
  /** The Authorization header is added when sent; the path is already in place. */
  request: RawRequest | { bytes: RawBytes };
  expected: Expected;
}

export interface CaseContext {
  /** The route's path with real ids. */
  path: string;
  bodyLimit: number;
}

const JSON_TYPE = 'application/json';
const NOT_FOUND: ErrorCode[] = [
  'not_found',
  'engine_not_found',
  'job_not_found',
  'export_not_found',
  'project_not_found',
  'session_not_found',
  'take_not_found',
  'voice_not_found',
];
const baseline: Expected = { baseline: true };
/** Errors of routes that read and parse the body; any other route answers as it does without it. */
const ifParsed = (route: ApiRoute, codes: ErrorCode[]): Expected => (readsBody(route) ? { codes } : baseline);
/** Errors of routes that validate the body against a schema; routes without one ignore valid JSON. */
const ifValidated = (route: ApiRoute, codes: ErrorCode[]): Expected => (readsBody(route) && route.body ? { codes } : baseline);

export function hostileCases(route: ApiRoute, context: CaseContext): HostileCase[] {
  return [
    ...bodyCases(route, context),
    ...fieldCases(route, context),
    ...pathCases(route),
    ...queryCases(route, context),
    ...headerCases(route, context),
    ...httpCases(route, context),
  ];
}

function json(route: ApiRoute, path: string, klass: string, name: string, body: string | Buffer, expected: Expected): HostileCase {
  return { class: klass, name, request: { method: route.method, path, headers: { 'content-type': JSON_TYPE }, body }, expected };
}

function bodyCases(route: ApiRoute, { path, bodyLimit }: CaseContext): HostileCase[] {
  const cases: HostileCase[] = [];
  const add = (klass: string, name: string, body: string | Buffer, expected: Expected) => {
    const tooLarge = Buffer.byteLength(body) > bodyLimit;
    cases.push(json(route, path, klass, name, body, tooLarge ? ifParsed(route, ['payload_too_large']) : expected));
  };
  const malformed = ['{', '{"text": ', '{"text":"hi",}', "{'text':'hi'}", '{text:"hi"}', '{"text":"hi"}{"text":"hi"}', '[1,2', 'NaN'];
  malformed.push('{"text":"\\x41"}', '{"text":"line\nbreak"}', '{"text":"hi"', '{"text":"hi"} trailing');
  for (const body of malformed) add('malformed JSON', JSON.stringify(body), body, ifParsed(route, ['invalid_json']));
  add('malformed JSON', 'empty body', '', ifParsed(route, ['invalid_json']));
  const prototypes = ['{"__proto__":{"polluted":1}}', '{"constructor":{"prototype":{"polluted":1}}}', '{"a":{"b":{"__proto__":{"x":1}}}}'];
  for (const body of prototypes) add('prototype keys', body, body, ifParsed(route, ['invalid_json']));
  const invalidUtf8 = { 'lone 0xFF': [0xff], 'cut 2-byte': [0xc3], 'cut 3-byte': [0xe2, 0x82], 'overlong "/"': [0xc0, 0xaf] };
  const moreUtf8 = { 'encoded surrogate U+D800': [0xed, 0xa0, 0x80], '5-byte form': [0xf8, 0x88, 0x80, 0x80, 0x80] };
  for (const [name, bytes] of Object.entries({ ...invalidUtf8, ...moreUtf8 })) {
    const body = Buffer.concat([Buffer.from('{"text":"Hello '), Buffer.from(bytes), Buffer.from('"}')]);
    add('invalid UTF-8', name, body, ifParsed(route, ['invalid_json']));
  }
  add('NUL bytes', 'raw NUL inside a string', '{"text":"a\u0000b"}', ifParsed(route, ['invalid_json']));
  add('NUL bytes', 'raw NUL after the object', '{"text":"ab"}\u0000', ifParsed(route, ['invalid_json']));
  for (const body of ['42', '"text"', '[]', 'null', 'true', '1e999', '[{"text":"hi"}]']) {
    add('wrong types', `top-level ${body}`, body, ifValidated(route, ['invalid_request']));
  }
  const depth = 100_000;
  add('deep nesting', `arrays ${depth} deep`, '['.repeat(depth) + ']'.repeat(depth), ifValidated(route, ['invalid_request']));
  add('deep nesting', `objects ${depth} deep`, '{"a":'.repeat(depth) + '1' + '}'.repeat(depth), ifValidated(route, ['invalid_request']));
  const deepText = `{"text":${'['.repeat(depth)}${']'.repeat(depth)}}`;
  add('deep nesting', `"text" ${depth} deep`, deepText, ifValidated(route, ['invalid_request']));
  const deepProto = '{"a":'.repeat(depth) + '{"__proto__":1}' + '}'.repeat(depth);
  add('deep nesting', `__proto__ ${depth} deep`, deepProto, ifParsed(route, ['invalid_json']));
  const half = Math.floor(bodyLimit / 2);
  add('huge JSON', 'array of numbers', `[${'1,'.repeat(half / 2 - 2)}1]`, ifValidated(route, ['invalid_request']));
  const keys = Array.from({ length: Math.floor(half / 16) }, (_, i) => `"k${i}":${i}`).join(',');
  add('huge JSON', 'object of many keys', `{${keys}}`, ifValidated(route, ['invalid_request']));
  add('huge JSON', 'over the limit', JSON.stringify({ text: 'a'.repeat(bodyLimit) }), ifParsed(route, ['payload_too_large']));
  if (readsBody(route)) {
    cases.push({
      class: 'huge JSON',
      name: 'over the limit, chunked',
      request: { method: route.method, path, headers: { 'content-type': JSON_TYPE }, body: 'a'.repeat(bodyLimit * 1.5), chunked: true },
      expected: { codes: ['payload_too_large'] },
    });
  }
  const types = ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/xml'];
  types.push('application/octet-stream', 'application/jsonx', 'application/vnd.api+json', 'text/json', 'json');
  for (const type of types) {
    const request = { method: route.method, path, headers: { 'content-type': type }, body: '{"text":"Hi."}' };
    cases.push({ class: 'wrong content types', name: type, request, expected: ifParsed(route, ['unsupported_media_type']) });
  }
  const untyped = { method: route.method, path, body: '{"text":"Hi."}' };
  cases.push({ class: 'wrong content types', name: 'none', request: untyped, expected: ifParsed(route, ['unsupported_media_type']) });
  return cases;
}

/** JSON values per JSON type, to give each field every type it does not accept. */
const TYPE_SAMPLES: [string, unknown][] = [
  ['string', 'x'],
  ['integer', 7],
  ['number', 1.5],
  ['boolean', true],
  ['null', null],
  ['array', ['x']],
  ['object', { x: 1 }],
];

function acceptedTypes(schema: JsonSchema): Set<string> {
  const types = new Set([schema.type ?? []].flat());
  for (const option of schema.anyOf ?? []) for (const type of acceptedTypes(option)) types.add(type);
  for (const value of [...(schema.enum ?? []), ...('const' in schema ? [schema.const] : [])]) types.add(typeof value);
  if (types.has('number')) types.add('integer');
  return types;
}

/** Each field of the body schema with wrong types, out-of-range numbers, too-long strings, pattern misses. */
function fieldCases(route: ApiRoute, { path, bodyLimit }: CaseContext): HostileCase[] {
  if (!route.body?.properties || !readsBody(route)) return [];
  const cases: HostileCase[] = [];
  const add = (name: string, field: string, value: unknown) => {
    const body = JSON.stringify({ ...sampleBody(route), [field]: value });
    // a field longer than the body limit (a cover image on a gateway with a small one) is refused as a body
    const codes: ErrorCode[] = Buffer.byteLength(body) > bodyLimit ? ['payload_too_large'] : ['invalid_request'];
    cases.push(json(route, path, 'wrong types', `${field}: ${name}`, body, { codes }));
  };
  for (const [field, schema] of Object.entries(route.body.properties)) {
    const accepted = acceptedTypes(schema);
    for (const [type, value] of TYPE_SAMPLES) if (!accepted.has(type)) add(type, field, value);
    if (schema.minimum !== undefined) add('below the minimum', field, schema.minimum - 1);
    if (schema.maximum !== undefined) add('above the maximum', field, schema.maximum + 1);
    if (accepted.has('number')) add('1e308', field, 1e308);
    if (schema.maxLength !== undefined) add('too long', field, 'x'.repeat(schema.maxLength + 1));
    if (schema.pattern !== undefined) add('no pattern match', field, ' \u0000\t\u001f ');
  }
  const unknown = JSON.stringify({ ...sampleBody(route), __unknown__: { deep: [1, null, 'x'] } });
  // a lenient body (OpenAI's speech request) accepts and ignores fields it does not name
  const lenient = route.body.additionalProperties !== false;
  cases.push(json(route, path, 'wrong types', 'unknown field', unknown, lenient ? { success: true } : { codes: ['invalid_request'] }));
  return cases;
}

/** Hostile values for path parameters, URL-encoded as they are sent. */
const HOSTILE_IDS: [string, string, ErrorCode[]?][] = [
  ['".."', '..'],
  ['literal traversal', '../../../../etc/passwd'],
  ['encoded traversal', '..%2F..%2F..%2Fetc%2Fpasswd'],
  ['double-encoded traversal', '%252e%252e%252fetc%252fpasswd'],
  ['encoded ".."', '%2e%2e'],
  ['NUL', '%00'],
  ['NUL before a suffix', 'x%00.wav'],
  ['percent-encoded invalid UTF-8', '%FF%FE', ['invalid_request']],
  ['broken percent-encoding', '%E0%A4%A', ['invalid_request']],
  ['emoji', '%F0%9F%98%80'],
  ['CRLF header injection', '%0D%0ASet-Cookie:%20x=1'],
  ['SQL', "x'%20OR%20'1'='1"],
  ['upper-case UUID', '00000000-0000-4000-8000-00000000000A'],
  ['300 characters', 'a'.repeat(300)],
  ['12,000 characters', 'a'.repeat(12_000)],
  ['20,000 characters (over the header limit)', 'a'.repeat(20_000), ['headers_too_large']],
];

function pathCases(route: ApiRoute): HostileCase[] {
  if (route.pathParams.length === 0) return [];
  // each parameter in turn, the others a plain "0", so a long value is not sent twice
  return route.pathParams.flatMap((param) =>
    HOSTILE_IDS.map(([name, id, codes]): HostileCase => {
      const path = route.template.replace(/\{([^{}]+)\}/g, (_, other: string) => (other === param ? id : '0'));
      const body = readsBody(route) ? { headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(sampleBody(route)) } : {};
      return {
        class: 'traversal and overlong ids',
        name: route.pathParams.length > 1 ? `${name} as {${param}}` : name,
        request: { method: route.method, path, ...body },
        expected: { codes: codes ?? NOT_FOUND },
      };
    }),
  );
}

/** Query strings no route declares: every route ignores them. */
const UNKNOWN_QUERIES = [
  '__proto__=1&__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  'a=%E0%A4%A&%=%&==',
  '&'.repeat(5000),
  'x[]=1&x[]=2&x[a]=3',
  `x=${encodeURIComponent('😀\u202e\u200b')}`,
  `x=${'q'.repeat(12_000)}`,
];
/** Junk for a declared parameter; a value its schema refuses must get invalid_request, others may pass. */
const PARAM_JUNK = ['', 'nope', 'abc', '-1', '0', '1.5', '99999999999999999999999', '%00', '%FF%FE', '1%20OR%201=1', 'A'.repeat(8000)];
const UNSPOKEN = [Buffer.from('not a date|x').toString('base64url'), Buffer.from("2020-01-01T00:00:00Z|' OR 1=1 --").toString('base64url')];

/** Whether a query value (as sent, percent-encoded) passes its parameter's schema. */
function schemaAccepts(schema: JsonSchema, sent: string): boolean {
  let value: string;
  try {
    value = decodeURIComponent(sent);
  } catch {
    value = sent;
  }
  const allowed = [...(schema.enum ?? []), ...(schema.anyOf ?? []).flatMap((option) => option.enum ?? [option.const])];
  if (allowed.length) return allowed.includes(value);
  return schema.pattern === undefined || new RegExp(schema.pattern, 'u').test(value);
}

/** Query parameters that name a thing (GET /v1/audio/voices?model=): a value the schema takes may name nothing, 404. */
const NAMING_PARAMS: Readonly<Record<string, ErrorCode>> = { model: 'engine_not_found' };

function queryCases(route: ApiRoute, { path }: CaseContext): HostileCase[] {
  const body = readsBody(route) ? { headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(sampleBody(route)) } : {};
  const aimed = route.queryParams.flatMap(({ name, schema }) => [
    ...[...PARAM_JUNK, ...UNSPOKEN].map((value): [string, Expected] => [
      `${name}=${value}`,
      schemaAccepts(schema, value)
        ? { success: true, orCodes: ['invalid_request', ...(Object.hasOwn(NAMING_PARAMS, name) ? [NAMING_PARAMS[name]!] : [])] }
        : { codes: ['invalid_request'] },
    ]),
    [`${name}=1&${name}=2`, { codes: ['invalid_request'] }] as [string, Expected],
  ]);
  const unknown = UNKNOWN_QUERIES.map((query): [string, Expected] => [query, baseline]);
  return [...aimed, ...unknown].map(([query, expected]) => ({
    class: 'query junk',
    name: query.length > 60 ? `${query.slice(0, 40)}… (${query.length} chars)` : query,
    request: { method: route.method, path: `${path}?${query}`, ...body },
    expected,
  }));
}

function headerCases(route: ApiRoute, { path }: CaseContext): HostileCase[] {
  const body: Pick<RawRequest, 'body'> & { headers: Record<string, string> } = readsBody(route)
    ? { headers: { 'content-type': JSON_TYPE }, body: JSON.stringify(sampleBody(route)) }
    : { headers: {} };
  const withHeaders = (name: string, headers: Record<string, string>, expected: Expected = baseline): HostileCase => ({
    class: 'header junk',
    name,
    request: { method: route.method, path, ...body, headers: { ...body.headers, ...headers } },
    expected,
  });
  const ranges = ['bytes=junk', 'bytes=99999999999999999999-', 'bytes=5-1', 'bytes=0-0,1-1,2-2', 'lines=1-2'];
  const many = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`x-junk-${i}`, '1']));
  return [
    withHeaders('Accept: text/html', { accept: 'text/html' }),
    withHeaders('Accept: nothing acceptable', { accept: 'application/xml;q=1, */*;q=0' }),
    withHeaders('Origin of another site', { origin: 'http://evil.example' }),
    withHeaders('X-Forwarded-Host', { 'x-forwarded-host': 'evil.example', 'x-forwarded-for': '10.0.0.1' }),
    // Range means something to GET only (RFC 9110 §14.2)
    ...(route.method === 'GET' ? ranges : []).map((range) =>
      withHeaders(`Range: ${range}`, { range }, { baseline: true, orCodes: ['range_not_satisfiable'] }),
    ),
    withHeaders('1,000 headers', many),
    withHeaders('a 20,000-byte header', { 'x-junk': 'a'.repeat(20_000) }, { codes: ['headers_too_large'] }),
  ];
}

function httpCases(route: ApiRoute, { path }: CaseContext): HostileCase[] {
  const invalid: Expected = { codes: ['invalid_request'] };
  const raw = (name: string, bytes: RawBytes): HostileCase => ({ class: 'malformed HTTP', name, request: { bytes }, expected: invalid });
  const m = route.method;
  return [
    raw('control byte in the path', (auth) => `${m} ${path}\u0001 HTTP/1.1\r\n${auth}\r\n`),
    raw('space in the path', (auth) => `${m} ${path} x HTTP/1.1\r\n${auth}\r\n`),
    raw('unknown HTTP version', (auth) => `${m} ${path} HTTP/9.9\r\n${auth}\r\n`),
    raw('header without a colon', (auth) => `${m} ${path} HTTP/1.1\r\n${auth}Junk\r\n\r\n`),
    raw('space in a header name', (auth) => `${m} ${path} HTTP/1.1\r\n${auth}Bad Header: x\r\n\r\n`),
    raw('Content-Length and Transfer-Encoding', (auth) =>
      [
        `${m} ${path} HTTP/1.1`,
        `${auth}Content-Type: ${JSON_TYPE}`,
        'Content-Length: 4',
        'Transfer-Encoding: chunked',
        '',
        '0',
        '',
        '',
      ].join('\r\n'),
    ),
    raw('two Content-Lengths', (auth) => `${m} ${path} HTTP/1.1\r\n${auth}Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}`),
    raw('negative Content-Length', (auth) => `${m} ${path} HTTP/1.1\r\n${auth}Content-Length: -1\r\n\r\n`),
    raw(
      'invalid chunk size',
      (auth) => `${m} ${path} HTTP/1.1\r\n${auth}Content-Type: ${JSON_TYPE}\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
    ),
  ];
}
