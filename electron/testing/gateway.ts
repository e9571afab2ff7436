/** Test support: a real gateway on a free port with its own temporary data dir. */
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { afterEach, expect } from 'vitest';
import os from 'node:os';
import path from 'node:path';
import { SETTINGS_PATH, type Export, type Settings, type SettingsView } from '../contract';
import { configFromArgs, type GatewayConfig } from '../gateway/config';
import { startGateway, type Gateway } from '../gateway/start';
import { readEvents } from './events';
import { until } from './until';

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

/** PUT /settings with one setting changed (the route takes the whole object: the rest as they are). */
export async function putSetting(
  gateway: Pick<TestGateway, 'api' | 'adminToken'>,
  name: keyof Settings,
  value: unknown,
): Promise<Response> {
  const { host: _host, ...settings } = ((await (await gateway.api(SETTINGS_PATH)).json()) as SettingsView).settings;
  return gateway.api(SETTINGS_PATH, {
    method: 'PUT',
    headers: { authorization: `Bearer ${gateway.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ ...settings, [name]: value }),
  });
}

interface JobState {
  status: string;
  progress: { done: number; total: number };
}

/** Queues `text` as a job (with `extra` fields: voice, format...) and waits until it is done; its id. */
export async function finishedJob(
  gateway: Pick<TestGateway, 'api' | 'post'>,
  text: string,
  extra: Record<string, unknown> = {},
): Promise<string> {
  const response = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job', ...extra });
  expect(response.status).toBe(202);
  const { job_id } = (await response.json()) as { job_id: string };
  expect((await waitForJob(gateway, job_id)).status).toBe('done');
  return job_id;
}

/**
 * Waits for a job to stop running on its event stream, which ends then (in-process and
 * child-process gateways alike); polls instead when the key has no stream slot free (429).
 */
export async function waitForJob(gateway: Pick<TestGateway, 'api'>, jobId: string, timeoutMs = 120_000): Promise<JobState> {
  const signal = AbortSignal.timeout(timeoutMs);
  const stillRunning = () => new Error(`Job ${jobId} still running after ${timeoutMs} ms`);
  try {
    const stream = await gateway.api(`/api/v1/tts/jobs/${jobId}/events`, { signal });
    if (stream.ok) {
      let last: JobState | undefined;
      for await (const { data } of readEvents(stream)) last = data as JobState;
      if (last && last.status !== 'running') return last;
    } else {
      await stream.body?.cancel();
    }
    // no stream, or one that ended early (the gateway closed): the job as the API shows it
    return await until(
      async () => {
        const job = (await (await gateway.api(`/api/v1/tts/jobs/${jobId}`, { signal })).json()) as JobState;
        return job.status === 'running' ? undefined : job;
      },
      timeoutMs,
      `job ${jobId} to finish`,
    );
  } catch (error) {
    throw signal.aborted ? stillRunning() : error;
  }
}

/** Polls a compare session until none of its takes is running; answers the session as it is then. */
export function waitForTakes(gateway: Pick<TestGateway, 'api'>, sessionId: string, timeoutMs = 120_000) {
  return until(
    async () => {
      const session = (await (await gateway.api(`/api/v1/tts/compare/sessions/${sessionId}`)).json()) as {
        takes: { status: string; take_id: string }[];
      };
      return session.takes.some((take) => take.status === 'running') ? undefined : session;
    },
    timeoutMs,
    `the takes of session ${sessionId}`,
  );
}

/** Polls an export (its `poll` URL) until it is no longer running; answers its view then. */
export function waitForExport(gateway: Pick<TestGateway, 'api'>, poll: string, timeoutMs = 120_000): Promise<Export> {
  return until(
    async () => {
      const view = (await (await gateway.api(poll)).json()) as Export;
      return view.status === 'running' ? undefined : view;
    },
    timeoutMs,
    `the export ${poll}`,
  );
}
