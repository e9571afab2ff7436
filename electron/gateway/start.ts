import path from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { EngineRegistry } from '../engines/registry';
import { knownEngines, clearTempDir } from '../engines/installed';
import { SpawnHost } from '../engines/spawn-host/client';
import { defaultModelDirs, vetModelsDir } from '../engines/model-dirs';
import { EmbeddedPool } from '../engines/worker-pool';
import { DiskBudget } from '../jobs/disk-budget';
import { JobRunner } from '../jobs/runner';
import { startRetentionSweeper } from '../jobs/retention';
import { JobStore } from '../jobs/store';
import { ExportStore } from '../jobs/export/export-store';
import { ExportService } from '../services/exports';
import { JobService } from '../services/jobs';
import { LexiconService } from '../services/lexicon';
import { OpenAISpeechService } from '../services/openai-speech';
import { CompareService } from '../services/compare-sessions';
import { ProjectService } from '../services/projects';
import { ProjectStore } from '../projects/store';
import { SynthesisService } from '../services/synthesis';
import { SettingsService } from '../settings/service';
import { readSavedSettings } from '../settings/store';
import { ADMIN_TOKEN_FILE, API_KEY_FILE, loadOrCreateSecret } from '../storage/credentials';
import { defaultDataDir, makeTreePrivate, prepareDataDir } from '../storage/data-dir';
import { lockDataDir } from '../storage/data-dir-lock';
import { CompareStore } from '../storage/compare-store';
import { openDatabase } from '../storage/database';
import { bodyLimitFor, configFromArgs, type GatewayConfig } from './config';
import { settingsOf, withSavedSettings } from './config-settings';
import { loadOrCreateInstanceId } from './identity';
import { allowedHosts, WILDCARDS } from './plugins/host-check';
import { queueBackend } from './queue-backend';
import { openRequestLog } from './request-log';
import { buildServer } from './server';
import { closeServerGracefully } from './shutdown';
import { recordGatewayUrl } from './url-file';

export interface Gateway {
  url: string;
  port: number;
  apiKey: string;
  apiKeyFile: string;
  /** With the Redis queue: the worker token's file, to copy to the worker hosts. */
  workerTokenFile: string | undefined;
  /** The admin token's file: whoever can read it may change settings. */
  adminTokenFile: string;
  /** The settings, for the desktop shell's settings window (IPC, not HTTP: the page holds no admin token). */
  settings: SettingsService;
  /** The stored key was made by this start (and no flag or variable overrides it): the only time it may be shown. */
  apiKeyCreated: boolean;
  /** This data folder's gateway id, as whoami reports it. */
  instance: string;
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
  await prepareDataDir(config.dataDir, { createParents: config.dataDir === defaultDataDir() });
  warnAboutForeignFiles(config.dataDir, makeTreePrivate(config.dataDir).failed);
  const disk = new DiskBudget(config.dataDir, config.minFreeBytes);
  // before the lock file and the database are written: on a full disk, the reserve makes room for them
  await disk.prepare();
  // What is started is stopped again, newest first, if a later step fails (say, the port is taken).
  const unlock = await lockDataDir(config.dataDir);
  const undo: (() => unknown)[] = [unlock];
  try {
    // Settings saved in the studio (settings.json) fill in what flags and env vars leave at the default.
    const saved = readSavedSettings(config.dataDir);
    config = withSavedSettings(config, saved);
    const stored = await loadOrCreateSecret(config.dataDir, API_KEY_FILE);
    let apiKey = config.apiKey ?? stored.value;
    const admin = await loadOrCreateSecret(config.dataDir, ADMIN_TOKEN_FILE);
    const instance = await loadOrCreateInstanceId(config.dataDir);
    const requestLog = openRequestLog(config.dataDir);
    undo.unshift(() => requestLog.close());

    const pool = new EmbeddedPool({ workerFile: options.workerFile, threads: config.workers });
    undo.unshift(() => pool.close());
    const modelDirs = config.modelsDir ? [config.modelsDir] : defaultModelDirs(config.dataDir);
    // engines' temporary files live in the data dir, which this gateway holds: what a crash left there goes now
    const tempDir = path.join(config.dataDir, 'tmp');
    await clearTempDir(tempDir);
    // system engines start from a small process: forking this big one blocked the event loop per chunk
    const spawner = new SpawnHost(path.join(path.dirname(pool.workerFile), 'spawn-host.mjs'));
    undo.unshift(() => spawner.close());
    const registry = new EngineRegistry(
      knownEngines(pool, {
        modelDirs,
        executables: config.engineExecutables,
        tempDir,
        timeoutMs: config.engineTimeoutMs,
        runTool: spawner.run,
      }),
    );
    await registry.probeAll();

    const db = openDatabase(config.dataDir);
    undo.unshift(() => db.close());
    const store = new JobStore(db);
    const backend = await queueBackend(config, store);
    const runner = new JobRunner({
      chunkQueue: backend.chunkQueue,
      store,
      registry,
      dataDir: config.dataDir,
      concurrency: pool.threads,
      maxQueuedJobs: config.maxQueuedJobs,
      maxQueuedChars: config.maxQueuedChars,
      disk,
    });
    await runner.recover();
    const settings = new SettingsService({
      dataDir: config.dataDir,
      running: settingsOf(config, saved),
      defaults: settingsOf(configFromArgs([], {})),
      saved,
      apiKey: { locked: config.apiKey !== undefined, onRegenerated: (key) => (apiKey = key) },
      vet: { program: (engineId, file) => registry.vetProgram(engineId, file), modelsDir: vetModelsDir },
    });
    const lexicon = await LexiconService.open(config.dataDir);
    const jobs = new JobService(store, runner, registry, () => settings.limits().retentionHours, lexicon);
    const exports = await ExportService.open(new ExportStore(config.dataDir), jobs, store, runner.files, disk);
    undo.unshift(() => exports.close());

    const synthesis = new SynthesisService(
      registry,
      runner,
      () => ({ ...settings.limits(), previewMaxChars: config.previewMaxChars }),
      () => jobs.expiryOfNewJob(),
      lexicon,
    );
    const projects = new ProjectService({
      store: new ProjectStore(db),
      jobStore: store,
      registry,
      synthesis,
      jobs,
      lexicon,
      exports,
      maxTextLength: () => settings.limits().maxTextLength,
    });

    const compare = new CompareService({
      store: new CompareStore(db),
      jobStore: store,
      registry,
      synthesis,
      jobs,
      jobWav: (jobId) => runner.files.audioFile(jobId, 'wav'),
      dataDir: config.dataDir,
    });

    let hosts = new Set<string>(); // known once the port is
    const app = await buildServer({
      registry,
      synthesis,
      projects,
      compare,
      jobs,
      exports,
      openaiSpeech: new OpenAISpeechService(registry, () => settings.current().openai_voices, lexicon),
      settings,
      lexicon,
      apiKey: () => apiKey,
      adminToken: () => admin.value,
      allowedHosts: () => hosts,
      bodyLimit: config.bodyLimit ?? bodyLimitFor(config.maxTextLength),
      staticDir: config.staticDir,
      logger: options.logger ?? false,
      instance,
      requestLog,
      internal: backend.internal && { ...backend.internal, instance },
      fleet: backend.fleet,
    });
    undo.unshift(() => app.close());
    await app.listen({ host: config.host, port: config.port });
    const port = (app.server.address() as AddressInfo).port;
    const extraHosts = (process.env.ORATOR_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean);
    hosts = allowedHosts(config.host, port, extraHosts);
    const url = `http://${urlHost(config.host)}:${port}`;
    const forgetUrl = await recordGatewayUrl(config.dataDir, url);
    undo.unshift(forgetUrl);
    runner.start();
    const stopSweeper = startRetentionSweeper(store, runner);

    return {
      url,
      port,
      get apiKey() {
        return apiKey;
      },
      apiKeyFile: stored.file,
      adminTokenFile: admin.file,
      workerTokenFile: backend.workerTokenFile,
      settings,
      apiKeyCreated: stored.created && config.apiKey === undefined,
      instance,
      app,
      registry,
      pauseQueue: () => runner.pause(),
      resumeQueue: () => runner.resume(),
      get queuePaused() {
        return runner.isPaused;
      },
      async close() {
        stopSweeper();
        // Inline requests in flight need the pool; job chunks in flight finish or resume at the next start.
        await Promise.all([closeServerGracefully(app), runner.stop()]);
        await exports.close();
        await pool.close();
        backend.fleet?.close();
        db.close();
        requestLog.close();
        await forgetUrl();
        await unlock();
      },
    };
  } catch (error) {
    for (const step of undo) await step();
    throw error;
  }
}

function warnAboutForeignFiles(dataDir: string, failed: string[]): void {
  if (failed.length === 0) return;
  console.warn(
    `Orator: ${failed.length} entries in the data folder ${dataDir} could not be made private (they belong to another user), e.g. ${failed[0]}.`,
  );
}

/** The host part of the gateway's URL: bound to every interface, it is reached on loopback. */
function urlHost(host: string): string {
  if (WILDCARDS.includes(host)) return '127.0.0.1';
  return host.includes(':') ? `[${host}]` : host;
}
