import { createHmac, randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { connect } from '../cli/connection';
import { WHOAMI_PATH } from '../contract';
import { startTestGateway, useTestGateways, type TestGateway } from '../testing/gateway';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());
const gateways = useTestGateways();

/** What a client does before it sends its key: a fresh nonce, and the proof checked against its own key, the instance and the port it asked. */
const expectedProof = (key: string, nonce: string, port = gateway.port, instance = gateway.instance) =>
  createHmac('sha256', key).update(`${instance}:${port}:${nonce}`).digest('base64url');
const whoami = (query = '') => fetch(`${gateway.url}${WHOAMI_PATH}${query}`);

describe('GET /api/v1/tts/whoami', () => {
  it('answers without a key: the server, its version and the instance id stored in the data dir', async () => {
    const response = await whoami();
    expect(response.status).toBe(200);
    expect(response.headers.get('cache-control')).toBe('no-store');
    const body = await response.json();
    const instance = (await readFile(path.join(gateway.dataDir, 'instance-id'), 'utf8')).trim();
    expect(body).toEqual({ server: 'orator', version, instance });
    expect(instance).toBe(gateway.instance);
    expect(instance).toMatch(/^[A-Za-z0-9_-]{12}$/);
  });

  it('with a nonce, proves that it holds the key: HMAC-SHA256(key, "<instance>:<port>:<nonce>"), which another key does not give', async () => {
    const nonce = randomBytes(24).toString('base64url');
    const body = (await (await whoami(`?nonce=${nonce}`)).json()) as { proof: string };
    expect(body.proof).toBe(expectedProof(gateway.apiKey, nonce));
    expect(body.proof).not.toBe(expectedProof(`${gateway.apiKey}x`, nonce));
    expect(body.proof).not.toBe(expectedProof(randomBytes(32).toString('base64url'), nonce));
    // another nonce, another proof: an answer cannot be replayed
    const other = (await (await whoami(`?nonce=${nonce}A`)).json()) as { proof: string };
    expect(other.proof).not.toBe(body.proof);
  });

  it('binds the proof to its port: a program on another port relaying the question gets a proof its clients refuse', async () => {
    // a squatter on another port that passes every question on to the running gateway, Host and all as the gateway expects
    const relay = http.createServer((request, response) => {
      const onward = http.request(
        {
          host: '127.0.0.1',
          port: gateway.port,
          path: request.url,
          method: request.method,
          headers: { ...request.headers, host: `127.0.0.1:${gateway.port}` },
        },
        (answer) => {
          response.writeHead(answer.statusCode!, answer.headers);
          answer.pipe(response);
        },
      );
      request.pipe(onward);
    });
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const relayPort = (relay.address() as AddressInfo).port;
    try {
      const nonce = randomBytes(24).toString('base64url');
      const relayed = (await (await fetch(`http://127.0.0.1:${relayPort}${WHOAMI_PATH}?nonce=${nonce}`)).json()) as { proof: string };
      // the gateway's proof, for the gateway's port: not the one a client of the relay's port computes
      expect(relayed.proof).toBe(expectedProof(gateway.apiKey, nonce));
      expect(relayed.proof).not.toBe(expectedProof(gateway.apiKey, nonce, relayPort));
      // the command line's check: the relay gets no key, the gateway does
      const env = {};
      await expect(connect({ url: `http://127.0.0.1:${relayPort}`, apiKeyFile: gateway.apiKeyFile }, env)).rejects.toThrow(
        /does not hold the API key .*or does not answer for this port/,
      );
      await expect(connect({ url: gateway.url, apiKeyFile: gateway.apiKeyFile }, env)).resolves.toMatchObject({ url: gateway.url });
    } finally {
      relay.closeAllConnections();
      await new Promise((resolve) => relay.close(resolve));
    }
  });

  it.each(['short', 'x'.repeat(129), 'has space in it, 16+', 'slash/is/not/url-safe', '%2e%2e%2f%2e%2e%2fpasswd-16chars', ''])(
    'refuses the nonce %j with 400 invalid_request',
    async (nonce) => {
      const response = await whoami(`?nonce=${encodeURIComponent(nonce)}`);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_request', message: expect.stringContaining('nonce') } });
    },
  );

  it('keeps its instance id across restarts of one data folder, and another folder has another', async () => {
    const first = await gateways.start();
    const id = first.instance;
    await gateways.close(first);
    expect((await gateways.start({ dataDir: first.dataDir })).instance).toBe(id);
    expect((await gateways.start()).instance).not.toBe(id);
  });
});
