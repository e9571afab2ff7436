/**
 * Test support: the job runner's real parts (store, registry, disk budget, files) without HTTP,
 * on an in-memory SQLite database and a temporary data dir, with a fake engine (fake-engine.ts).
 */
import Database from 'better-sqlite3';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EngineRegistry } from '../engines/registry';
import type { JobOutput } from '../jobs/admission';
import { DiskBudget } from '../jobs/disk-budget';
import type { JobChange } from '../jobs/events';
import { JobRunner, type RunnerOptions } from '../jobs/runner';
import type { JobRow } from '../jobs/rows';
import { JobStore } from '../jobs/store';
import { prepareDatabase } from '../storage/database';
import { FakeEngine } from './fake-engine';

export type JobHarness = Awaited<ReturnType<typeof startJobHarness>>;

export const PROSODY = { rate: 1, pitch: 1, volume: 1 };
/** A job's output unless told: a WAV, as the API's default. */
export const WAV_OUTPUT: JobOutput = { format: 'wav', bitrateKbps: undefined, keepWav: false };

/** A runner started on a fake engine, one chunk at a time unless told; `close()` stops it and removes its data dir. */
export async function startJobHarness(options: Partial<Pick<RunnerOptions, 'concurrency' | 'maxQueuedJobs' | 'maxQueuedChars'>> = {}) {
  const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-unit-'));
  const engine = new FakeEngine();
  const registry = new EngineRegistry([engine]);
  await registry.probeAll();
  const db = prepareDatabase(new Database(':memory:'));
  const store = new JobStore(db);
  const disk = new DiskBudget(dataDir, 0);
  const runner = new JobRunner({
    store,
    registry,
    dataDir,
    disk,
    concurrency: 1,
    maxQueuedJobs: 100,
    maxQueuedChars: 1_000_000,
    ...options,
  });
  const changes: JobChange[] = [];
  runner.on('job', (change) => changes.push(change));
  await runner.recover();
  runner.start();
  return {
    dataDir,
    engine,
    registry,
    store,
    disk,
    runner,
    /** Every change the runner emitted, in order. */
    changes,
    enqueue: (text: string, prosody = PROSODY, output: JobOutput = WAV_OUTPUT) =>
      runner.enqueue(registry.resolve({ voice: engine.voiceId }), text, prosody, null, output),
    /** Event types emitted for one job, in order. */
    eventsOf: (id: string) => changes.filter((c) => c.job.id === id).map((c) => c.type),
    /** Resolves with the job's row once it is done or failed. */
    ended: (id: string) => ended(runner, store, id),
    async close() {
      await runner.stop(0);
      db.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

function ended(runner: JobRunner, store: JobStore, id: string): Promise<JobRow> {
  return new Promise((resolve) => {
    const check = () => {
      const row = store.get(id);
      if (row?.state !== 'done' && row?.state !== 'failed') return;
      runner.off('job', check);
      resolve(row);
    };
    runner.on('job', check);
    check();
  });
}
