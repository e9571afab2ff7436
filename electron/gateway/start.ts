import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { EngineRegistry } from '../engines/registry';
import { DiskBudget } from '../jobs/disk-budget';
import { startRetentionSweeper } from '../jobs/retention';
import type { SettingsService } from '../settings/service';
import type { VoiceLibraryService } from '../services/voice-library';
import { defaultDataDir, makeTreePrivate, prepareDataDir } from '../storage/data-dir';
import { bodyLimitFor, type GatewayConfig } from './config';
import { buildServices, type Services } from './build-services';
import { Disposers } from './disposers';
import { openCore, type Core } from './open-core';
import { allowedHosts, WILDCARDS } from './plugins/host-check';
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
  /** The voice library, for the desktop shell's installs (IPC, with the user's confirmation). */
  voiceLibrary: VoiceLibraryService;
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
  /** Closes everything the start opened, newest first (safe to call twice). */
  close(): Promise<void>;
}

export interface StartOptions {
  /** The built synthesis worker (dist/synth-worker.mjs). */
  workerFile: string | URL;
  logger?: boolean;
}

/**
 * Starts everything in three steps: the core (data folder, engines, database, job runner), the
 * services over it, then the HTTP server on config.host:port. Each step adds the closing of what it
 * opened to one list, which undoes a start that fails (say, the port is taken) and is close().
 */
export async function startGateway(config: GatewayConfig, options: StartOptions): Promise<Gateway> {
  await prepareDataDir(config.dataDir, { createParents: config.dataDir === defaultDataDir() });
  warnAboutForeignFiles(config.dataDir, makeTreePrivate(config.dataDir).failed);
  const disk = new DiskBudget(config.dataDir, config.minFreeBytes);
  // before the lock file and the database are written: on a full disk, the reserve makes room for them
  await disk.prepare();
  const disposers = new Disposers();
  try {
    const core = await openCore(config, options.workerFile, disk, disposers);
    const services = await buildServices(core, disposers);
    const { app, url, port } = await listen(core, services, options, disposers);
    const { keys, runner, backend } = core;
    return {
      url,
      port,
      get apiKey() {
        return keys.api;
      },
      apiKeyFile: keys.apiFile,
      adminTokenFile: keys.adminFile,
      workerTokenFile: backend.workerTokenFile,
      settings: services.settings,
      voiceLibrary: services.voiceLibrary,
      apiKeyCreated: keys.apiCreated,
      instance: core.instance,
      app,
      registry: core.registry,
      pauseQueue: () => runner.pause(),
      resumeQueue: () => runner.resume(),
      get queuePaused() {
        return runner.isPaused;
      },
      close: () => disposers.dispose(),
    };
  } catch (error) {
    await disposers.dispose().catch((failure: unknown) => console.error('Orator: undoing a failed start:', failure));
    throw error;
  }
}

/** Builds the HTTP server, listens, records the URL, then starts the job runner and the retention sweeper. */
async function listen(core: Core, services: Services, options: StartOptions, disposers: Disposers) {
  const { config, keys, runner } = core;
  let hosts = new Set<string>(); // known once the port is
  const app = await buildServer({
    ...services,
    registry: core.registry,
    apiKey: () => keys.api,
    adminToken: () => keys.admin,
    allowedHosts: () => hosts,
    bodyLimit: config.bodyLimit ?? bodyLimitFor(config.maxTextLength),
    staticDir: config.staticDir,
    logger: options.logger ?? false,
    instance: core.instance,
    requestLog: core.requestLog,
    internal: core.backend.internal && { ...core.backend.internal, instance: core.instance },
    fleet: core.backend.fleet,
  });
  // Inline requests in flight need the engines; job chunks in flight finish or resume at the next start.
  disposers.add('the HTTP server', () => Promise.all([closeServerGracefully(app), runner.stop()]));
  await app.listen({ host: config.host, port: config.port });
  const port = (app.server.address() as AddressInfo).port;
  const extraHosts = (process.env.ORATOR_ALLOWED_HOSTS ?? '')
    .split(',')
    .map((h) => h.trim().toLowerCase())
    .filter(Boolean);
  hosts = allowedHosts(config.host, port, extraHosts);
  const url = `http://${urlHost(config.host)}:${port}`;
  const keySource = config.apiKeySource
    ? { source: config.apiKeySource, ...(config.apiKeyFile ? { file: config.apiKeyFile } : {}) }
    : { source: keys.apiFile, file: keys.apiFile };
  disposers.add('the recorded URL', await recordGatewayUrl(config.dataDir, url, keySource));
  runner.start();
  disposers.add('the retention sweeper', startRetentionSweeper(core.store, runner));
  return { app, url, port };
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
