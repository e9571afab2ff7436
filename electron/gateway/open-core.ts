import path from 'node:path';
import { clearTempDir, knownEngines } from '../engines/installed';
import { defaultModelDirs } from '../engines/model-dirs';
import { EngineRegistry } from '../engines/registry';
import { SpawnHost } from '../engines/spawn-host/client';
import { EmbeddedPool } from '../engines/worker-pool';
import type { DiskBudget } from '../jobs/disk-budget';
import { BaseAudio } from '../jobs/base-audio/reuse';
import { JobFiles } from '../jobs/files';
import { RenderCache } from '../jobs/render-cache/cache';
import { JobRunner } from '../jobs/runner';
import { JobStore } from '../jobs/store';
import { resolveSettings, type ResolvedSettings } from '../settings/resolve';
import { readSavedSettings, type SavedSettings } from '../settings/store';
import { asConfig, fromConfig } from '../settings/table';
import { ADMIN_TOKEN_FILE, API_KEY_FILE, loadOrCreateSecret } from '../storage/credentials';
import { lockDataDir } from '../storage/data-dir-lock';
import { openDatabase } from '../storage/database';
import type { RotatingLog } from '../storage/rotating-log';
import type { GatewayConfig, RunningConfig } from './config';
import type { Disposers } from './disposers';
import { loadOrCreateInstanceId } from './identity';
import { queueBackend, type QueueBackend } from './queue-backend';
import { openRequestLog } from './request-log';

/** The credentials of this start; `api` changes when the key is replaced. */
export interface Keys {
  api: string;
  apiFile: string;
  /** The stored key was made by this start (and no flag or variable overrides it): the only time it may be shown. */
  apiCreated: boolean;
  admin: string;
  adminFile: string;
}

/** What the gateway stands on: the data folder, its credentials, the engines, the database and the job runner. */
export interface Core {
  /** The configuration with every setting filled in: given for this run, else saved, else its default. */
  config: RunningConfig;
  /** The settings it runs with, and where each came from. */
  settings: ResolvedSettings;
  saved: SavedSettings;
  keys: Keys;
  instance: string;
  disk: DiskBudget;
  requestLog: RotatingLog;
  pool: EmbeddedPool;
  /** Where engines find neural models; voices are installed into the first. */
  modelDirs: string[];
  registry: EngineRegistry;
  store: JobStore;
  db: ReturnType<typeof openDatabase>;
  backend: QueueBackend;
  renderCache: RenderCache;
  runner: JobRunner;
}

/**
 * Opens the core, each part's closing added to `disposers` as soon as the part is open: the data
 * folder's lock, the request log, the engines (their threads and the spawn host), the database,
 * the chunk queue's backend and the runner with the jobs it took up (not yet running).
 */
export async function openCore(given: GatewayConfig, workerFile: string | URL, disk: DiskBudget, disposers: Disposers): Promise<Core> {
  disposers.add('the data folder lock', await lockDataDir(given.dataDir));
  // Settings saved in the studio (settings.json) fill in what flags and env vars do not give.
  const saved = readSavedSettings(given.dataDir);
  const settings = resolveSettings(fromConfig(given), given.givenBy ?? {}, saved);
  const config = { ...given, ...asConfig(settings.settings) } as RunningConfig;
  const stored = await loadOrCreateSecret(config.dataDir, API_KEY_FILE);
  const admin = await loadOrCreateSecret(config.dataDir, ADMIN_TOKEN_FILE);
  const keys: Keys = {
    api: config.apiKey ?? stored.value,
    apiFile: stored.file,
    apiCreated: stored.created && config.apiKey === undefined,
    admin: admin.value,
    adminFile: admin.file,
  };
  const instance = await loadOrCreateInstanceId(config.dataDir);
  const requestLog = openRequestLog(config.dataDir);
  disposers.add('the request log', () => requestLog.close());

  const pool = new EmbeddedPool({ workerFile, threads: config.workers });
  disposers.add('the synthesis threads', () => pool.close());
  // engines' temporary files live in the data dir, which this gateway holds: what a crash left there goes now
  const tempDir = path.join(config.dataDir, 'tmp');
  await clearTempDir(tempDir);
  // system engines start from a small process: forking this big one blocked the event loop per chunk
  const spawner = new SpawnHost(path.join(path.dirname(pool.workerFile), 'spawn-host.mjs'));
  disposers.add('the engine spawn host', () => spawner.close());
  const modelDirs = config.modelsDir ? [config.modelsDir] : defaultModelDirs(config.dataDir);
  const registry = new EngineRegistry(
    knownEngines(pool, {
      modelDirs,
      executables: config.engineExecutables,
      tempDir,
      timeoutMs: 1000 * config.engineTimeoutS,
      runTool: spawner.run,
    }),
  );
  await registry.probeAll();

  const db = openDatabase(config.dataDir);
  disposers.add('the database', () => db.close());
  const store = new JobStore(db);
  const renderCache = await RenderCache.open({ db, dataDir: config.dataDir, disk, maxBytes: 1024 * 1024 * config.renderCacheMb });
  // the cache holds its disk while nothing else needs it
  disk.reclaimFrom(renderCache);
  const backend = await queueBackend(config, store);
  disposers.add('the fleet engine list', () => backend.fleet?.close());
  const runner = new JobRunner({
    chunkQueue: backend.chunkQueue,
    store,
    registry,
    dataDir: config.dataDir,
    concurrency: pool.threads,
    maxQueuedJobs: config.maxQueuedJobs,
    maxQueuedChars: config.maxQueuedChars,
    disk,
    renderCache,
    baseAudio: new BaseAudio(db, store, new JobFiles(config.dataDir)),
  });
  // the jobs it takes up hold audio writers (an encoder each) until it stops
  disposers.add('the job runner', () => runner.stop());
  await runner.recover();
  return { config, settings, saved, keys, instance, disk, requestLog, pool, modelDirs, registry, store, db, backend, renderCache, runner };
}
