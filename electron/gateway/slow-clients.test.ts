import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { HTTP_TIMEOUTS } from './server';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

/**
 * A slow-loris client: a request line, then one header byte every 500 ms, never the blank line
 * that ends the headers. Resolves with how long the gateway kept the socket and what it said.
 */
function slowHeaders(): Promise<{ heldMs: number; answer: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(gateway.port, '127.0.0.1');
    const started = Date.now();
    let answer = '';
    let drip: NodeJS.Timeout;
    socket.on('connect', () => {
      socket.write(`GET /api/v1/tts/engines HTTP/1.1\r\nHost: 127.0.0.1:${gateway.port}\r\nX-Slow: `);
      drip = setInterval(() => socket.write('a'), 500);
    });
    socket.on('data', (data) => (answer += data.toString()));
    socket.on('error', () => {}); // a reset while dripping counts as closed
    socket.on('close', () => {
      clearInterval(drip);
      resolve({ heldMs: Date.now() - started, answer });
    });
    setTimeout(() => reject(new Error('the slow socket was never closed')), 30_000);
  });
}

it('closes sockets whose headers do not arrive within the headers timeout, while serving everyone else', async () => {
  const loris = Array.from({ length: 20 }, () => slowHeaders());
  // normal requests during the attack, each answered at once
  const served: number[] = [];
  for (let i = 0; i < 10; i++) {
    const started = Date.now();
    expect((await gateway.api('/api/v1/tts/engines')).status).toBe(200);
    served.push(Date.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  const results = await Promise.all(loris);
  const held = results.map((r) => r.heldMs);
  console.log(
    `slow-loris sockets closed after ${Math.min(...held)}–${Math.max(...held)} ms; other requests took at most ${Math.max(...served)} ms`,
  );
  for (const { heldMs, answer } of results) {
    expect(heldMs).toBeGreaterThanOrEqual(HTTP_TIMEOUTS.headersMs - 100);
    // checked every second, with a second of slack for a busy machine
    expect(heldMs).toBeLessThanOrEqual(HTTP_TIMEOUTS.headersMs + HTTP_TIMEOUTS.checkEveryMs + 1000);
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
  }
  expect(Math.max(...served)).toBeLessThan(1000);
});
