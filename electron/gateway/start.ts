import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { EngineRegistry } from '../engines/registry';
import { allEngines, clearTempDir } from '../engines/installed';
import { defaultModelDirs } from '../engines/model-dirs';
import { SynthesisPool } from '../engines/worker-pool';
import { DiskBudget } from '../jobs/disk-budget';
import { JobRunner } from '../jobs/runner';
import { startRetentionSweeper } from '../jobs/retention';
import { JobStore } from '../jobs/store';
import { JobService } from '../services/jobs';
import { SynthesisService } from '../services/synthesis';
import { SettingsService } from '../settings/service';
import { lockDataDir } from '../storage/data-dir-lock';
import { openDatabase } from '../storage/database';
import { loadOrCreateApiKey } from './api-key';
import { bodyLimitFor, type GatewayConfig } from './config';
import { allowedHosts, WILDCARDS } from './plugins/host-check';
import { buildServer } from './server';

export interface Gateway {
  url: string;
  port: number;
  apiKey: string;
  apiKeyFile: string;
  app: FastifyInstance;
  registry: EngineRegistry;
  /** Holds back new job chunks (the tray's "pause queue"); running chunks finish. */
  pauseQueue(): void;
  resumeQueue(): void;
  readonly queuePaused: boolean;
  close(): Promise<void>;
}

export interface StartOptions {
  /** The built synthesis worker (dist/synth-worker.mjs). */
  workerFile: string | URL;
  logger?: boolean;
}

/** Starts everything: engines, database, job runner and the HTTP server on config.host:port. */
export async function startGateway(config: GatewayConfig, options: StartOptions): Promise<Gateway> {
  await mkdir(config.dataDir, { recursive: true, mode: 0o700 });
  const disk = new DiskBudget(config.dataDir, config.minFreeBytes);
  // before the lock file and the database are written: on a full disk, the reserve makes room for them
  await disk.prepare();
  // What is started is stopped again, newest first, if a later step fails (say, the port is taken).
  const unlock = await lockDataDir(config.dataDir);
  const undo: (() => unknown)[] = [unlock];
  try {
    // Settings saved in the studio (settings.json) fill in what flags and env vars leave at the default.
    const settings = SettingsService.open(config, { locked: config.apiKey !== undefined, onRegenerated: (key) => (apiKey = key) });
    config = settings.config;
    const stored = await loadOrCreateApiKey(config.dataDir);
    let apiKey = config.apiKey ?? stored.key;

    const pool = new SynthesisPool({ workerFile: options.workerFile, threads: config.workers });
    undo.unshift(() => pool.close());
    const { models_dir, engine_executables } = settings.current();
    const modelDirs = models_dir ? [models_dir] : defaultModelDirs(config.dataDir);
    // engines' temporary files live in the data dir, which this gateway holds: what a crash left there goes now
    const tempDir = path.join(config.dataDir, 'tmp');
    await clearTempDir(tempDir);
    const registry = new EngineRegistry(
      allEngines(pool, { modelDirs, executables: engine_executables, tempDir, timeoutMs: config.engineTimeoutMs }),
    );
    await registry.probeAll();

    const db = openDatabase(config.dataDir);
    undo.unshift(() => db.close());
    const store = new JobStore(db);
    const runner = new JobRunner({
      store,
      registry,
      dataDir: config.dataDir,
      concurrency: pool.threads,
      maxQueuedJobs: config.maxQueuedJobs,
      maxQueuedChars: config.maxQueuedChars,
      disk,
    });
    await runner.recover();
    const jobs = new JobService(store, runner, registry, () => config.retentionHours);

    let hosts = new Set<string>(); // known once the port is
    const app = await buildServer({
      registry,
      synthesis: new SynthesisService(registry, runner, config, () => jobs.expiryOfNewJob()),
      jobs,
      settings,
      apiKey: () => apiKey,
      allowedHosts: () => hosts,
      bodyLimit: config.bodyLimit ?? bodyLimitFor(config.maxTextLength),
      staticDir: config.staticDir,
      logger: options.logger ?? false,
    });
    undo.unshift(() => app.close());
    await app.listen({ host: config.host, port: config.port });
    const port = (app.server.address() as AddressInfo).port;
    const extraHosts = (process.env.ORATOR_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    hosts = allowedHosts(config.host, port, extraHosts);
    runner.start();
    const stopSweeper = startRetentionSweeper(store, runner);

    return {
      url: `http://${urlHost(config.host)}:${port}`,
      port,
      get apiKey() {
        return apiKey;
      },
      apiKeyFile: stored.file,
      app,
      registry,
      pauseQueue: () => runner.pause(),
      resumeQueue: () => runner.resume(),
      get queuePaused() {
        return runner.isPaused;
      },
      async close() {
        stopSweeper();
        await app.close();
        await runner.stop();
        await pool.close();
        db.close();
        await unlock();
      },
    };
  } catch (error) {
    for (const step of undo) await step();
    throw error;
  }
}

/** The host part of the gateway's URL: bound to every interface, it is reached on loopback. */
function urlHost(host: string): string {
  if (WILDCARDS.includes(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
