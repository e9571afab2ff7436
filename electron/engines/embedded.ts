import { dependencies } from '../../package.json';
import { ApiError, type Capabilities, type PhonemeAlphabet } from '../contract';
import type { Pcm } from '../audio/pcm';
import { assertPlausiblePcm } from '../audio/wav';
import { ENGINE_TIMEOUT_MS, type EngineAdapter, type Probe } from './engine';
import { filesFingerprint, ProbeMemo } from './probe-memo';
import { TaskTimeout, type EmbeddedPool } from './worker-pool';

/** Listing voices loads the engine on a thread (0.6–1.4 CPU-s each): not again at a restart in this process. */
const probes = new ProbeMemo<Probe>((probe) => probe.available);

/**
 * Characters of a job's consecutive chunks sent to an engine thread in one task (a chunker's chunk
 * at most, DEFAULT_CHUNK_CHARS): each is still its own call of the engine, but a project's chapter,
 * a sentence per chunk, makes a hop to the thread and a message back per few sentences, not per
 * sentence (docs/performance.md#the-render-cache-issue-35).
 */
export const EMBEDDED_BATCH_CHARS = 500;

export interface EmbeddedSpec {
  /** Also the key of the engine in worker.ts. */
  id: string;
  name: string;
  capabilities: Capabilities;
  phonemeAlphabet?: PhonemeAlphabet;
  /** Local name of the default voice; the first voice when it is missing. */
  defaultVoice: string;
  /** The npm package that holds the engine: its version is the engine's. */
  package: keyof typeof dependencies;
  /** Files and folders of the machine its voices come from, besides the package (SVOX Pico's language files). */
  voiceFiles?: () => string[];
}

/** Settings of an embedded engine that tests and the configuration may override. */
export interface EmbeddedOptions {
  /**
   * A synthesis still running after this long has its worker thread stopped and fails with
   * engine_timeout; counted from when it gets a thread. Default ENGINE_TIMEOUT_MS. Listing voices
   * (which loads the engine) always has ENGINE_TIMEOUT_MS.
   */
  timeoutMs?: number;
}

/** An embedded (WASM) engine: probed and run on the worker-thread pool, see worker.ts. */
export function embeddedAdapter(pool: EmbeddedPool, spec: EmbeddedSpec, options: EmbeddedOptions = {}): EngineAdapter {
  const { id } = spec;
  const timeoutMs = options.timeoutMs ?? ENGINE_TIMEOUT_MS;
  /**
   * A timeout becomes engine_timeout and an abort by the caller stays the caller's abort; anything
   * else (the engine threw, its worker thread died) is engine_error. The pool replaces a dead thread.
   */
  const failed =
    (signal?: AbortSignal) =>
    (error: unknown): never => {
      if (error instanceof TaskTimeout) {
        throw new ApiError('engine_timeout', `${spec.name} did not finish within ${error.timeoutMs / 1000} s and was stopped.`);
      }
      if (signal?.aborted || error instanceof ApiError) throw error;
      throw new ApiError('engine_error', `${spec.name} failed: ${(error as Error).message}`);
    };
  async function listVoices(): Promise<Probe> {
    try {
      const voices = await pool.voices(id, ENGINE_TIMEOUT_MS).catch(failed());
      if (voices.length === 0) return { available: false, reason: `${spec.name} has no voices.` };
      const preferred = voices.find((v) => v.id === `${id}:${spec.defaultVoice}`) ?? voices[0]!;
      return { available: true, voices, defaultVoice: preferred.id };
    } catch (error) {
      return { available: false, reason: `${spec.name} cannot run: ${(error as Error).message}` };
    }
  }
  return {
    id,
    name: spec.name,
    kind: 'embedded',
    capabilities: spec.capabilities,
    ...(spec.phonemeAlphabet ? { phonemeAlphabet: spec.phonemeAlphabet } : {}),
    version: () => `${spec.package}@${dependencies[spec.package]}`,
    async probe(probeOptions = {}): Promise<Probe> {
      // the engine is the worker bundle's and its package's: the same bundle lists the same voices
      const fingerprint = await filesFingerprint([pool.workerFile, ...(spec.voiceFiles?.() ?? [])]);
      return probes.answer(id, fingerprint, probeOptions, listVoices);
    },
    async synthesize(request, { lane, signal }) {
      const pcm = await pool.run({ kind: 'synthesize', engine: id, request }, lane, { signal, timeoutMs }).catch(failed(signal));
      return plausible(pcm);
    },
    batchChars: EMBEDDED_BATCH_CHARS,
    async synthesizeBatch(requests, { lane, signal }) {
      const pcms = await pool.run({ kind: 'synthesize-batch', engine: id, requests }, lane, { signal, timeoutMs }).catch(failed(signal));
      return pcms.map(plausible);
    },
  };

  /** A worker thread answers with whatever its engine made: garbage stops here, not in a WAV. */
  function plausible(pcm: Pcm): Pcm {
    try {
      assertPlausiblePcm(pcm);
    } catch (error) {
      throw new ApiError('engine_error', `${spec.name} returned unusable audio: ${(error as Error).message}.`);
    }
    return pcm;
  }
}
