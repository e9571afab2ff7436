/** Test support: a real gateway on a free port with its own temporary data dir. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { afterEach } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { configFromArgs, type GatewayConfig } from '../gateway/config';
import { startGateway, type Gateway } from '../gateway/start';

/** The built worker: `npm test` builds it first (`npm run build`). */
export const WORKER_FILE = path.resolve('dist/synth-worker.mjs');

export interface TestGateway extends Gateway {
  dataDir: string;
  /** The admin token (read from its file): for the settings routes. */
  adminToken: string;
  /** fetch() against the gateway with the API key. */
  api(route: string, init?: RequestInit): Promise<Response>;
  /** POST a JSON body with the API key. */
  post(route: string, body: unknown): Promise<Response>;
  stop(): Promise<void>;
}

/** `workerFile`: another worker bundle, for tests of a worker that misbehaves. */
export async function startTestGateway(overrides: Partial<GatewayConfig> = {}, workerFile: string = WORKER_FILE): Promise<TestGateway> {
  const dataDir = overrides.dataDir ?? (await mkdtemp(path.join(os.tmpdir(), 'orator-test-')));
  const gateway = await startGateway({ ...configFromArgs([], {}), port: 0, dataDir, ...overrides }, { workerFile });
  const api = (route: string, init: RequestInit = {}) =>
    fetch(gateway.url + route, { ...init, headers: { authorization: `Bearer ${gateway.apiKey}`, ...init.headers } });
  return Object.assign(gateway, {
    dataDir,
    adminToken: (await readFile(gateway.adminTokenFile, 'utf8')).trim(),
    api,
    post: (route: string, body: unknown) =>
      api(route, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    async stop() {
      await gateway.close();
      if (!overrides.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  });
}

/**
 * Gateways of a test file that starts several (restarts on one data dir among them): each test's
 * gateways are stopped and their data dirs removed after it.
 */
export function useTestGateways() {
  const running: TestGateway[] = [];
  const dataDirs = new Set<string>();
  afterEach(async () => {
    await Promise.all(running.splice(0).map((gateway) => gateway.close()));
    await Promise.all([...dataDirs].map((dir) => rm(dir, { recursive: true, force: true })));
    dataDirs.clear();
  });
  return {
    async start(overrides: Partial<GatewayConfig> = {}): Promise<TestGateway> {
      const gateway = await startTestGateway(overrides);
      running.push(gateway);
      dataDirs.add(gateway.dataDir);
      return gateway;
    },
    /** Stops a gateway but keeps its data dir, for a restart on it. */
    async close(gateway: TestGateway): Promise<void> {
      running.splice(running.indexOf(gateway), 1);
      await gateway.close();
    },
  };
}

/** Polls a job until it is no longer running; works for in-process and child-process gateways. */
export async function waitForJob(gateway: Pick<TestGateway, 'api'>, jobId: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = (await (await gateway.api(`/api/v1/tts/jobs/${jobId}`)).json()) as {
      status: string;
      progress: { done: number; total: number };
    };
    if (job.status !== 'running') return job;
    if (Date.now() > deadline) throw new Error(`Job ${jobId} still running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Polls a compare session until none of its takes is running; answers the session as it is then. */
export async function waitForTakes(gateway: Pick<TestGateway, 'api'>, sessionId: string, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const session = (await (await gateway.api(`/api/v1/tts/compare/sessions/${sessionId}`)).json()) as {
      takes: { status: string; take_id: string }[];
    };
    if (!session.takes.some((take) => take.status === 'running')) return session;
    if (Date.now() > deadline) throw new Error(`Session ${sessionId} still has takes running after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
