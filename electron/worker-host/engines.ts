import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { EngineDetail } from '../contract';
import { knownEngines } from '../engines/installed';
import { defaultModelDirs } from '../engines/model-dirs';
import { EngineRegistry } from '../engines/registry';
import { EmbeddedPool } from '../engines/worker-pool';
import type { WorkerHostConfig } from './config';

/** This machine's engines as a worker host runs them, on engine threads and a temporary folder of its own. */
export interface HostEngines {
  registry: EngineRegistry;
  /** The engines available here, with their voices: what the host advertises. */
  engines: EngineDetail[];
  /** The ids of their voices: the voices whose chunks this host can take. */
  voices: Set<string>;
  /** Ends the engine threads and removes the temporary folder. */
  close(): Promise<void>;
}

/** Finds which engines and voices this machine has (each engine probed once, as at the gateway's start). */
export async function openHostEngines(config: WorkerHostConfig, workerFile: string | URL): Promise<HostEngines> {
  const pool = new EmbeddedPool({ workerFile, threads: config.concurrency });
  const tempDir = await mkdtemp(path.join(os.tmpdir(), 'orator-worker-'));
  const registry = new EngineRegistry(
    knownEngines(pool, {
      modelDirs: config.modelsDir ? [config.modelsDir] : defaultModelDirs(),
      executables: config.engineExecutables,
      tempDir,
      timeoutMs: config.engineTimeoutMs,
    }),
  );
  await registry.probeAll();
  const engines = registry
    .summaries()
    .filter((engine) => engine.available)
    .map((engine) => registry.detail(engine.id));
  return {
    registry,
    engines,
    voices: new Set(engines.flatMap((engine) => engine.voices.map((voice) => voice.id))),
    async close() {
      await pool.close();
      await rm(tempDir, { recursive: true, force: true });
    },
  };
}
