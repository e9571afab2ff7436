import type { ToolRunner } from './cli';
import type { EngineAdapter } from './engine';
import { espeakWasmAdapter } from './espeak-ng/adapter';
import { espeakSystemAdapter } from './espeak-ng-system/adapter';
import { festivalAdapter } from './festival/adapter';
import { fliteWasmAdapter } from './flite/adapter';
import { fliteSystemAdapter } from './flite-system/adapter';
import { gnuspeechAdapter } from './gnuspeech/adapter';
import { macosSayAdapter } from './macos-say/adapter';
import { mimic3Adapter } from './mimic3/adapter';
import { defaultModelDirs } from './model-dirs';
import { pico2waveAdapter } from './pico2wave/adapter';
import { piperAdapter } from './piper/adapter';
import { rhvoiceAdapter } from './rhvoice/adapter';
import { sherpaOnnxAdapter } from './sherpa-onnx/adapter';
import { picoWasmAdapter } from './svox-pico/adapter';
import { windowsSapiAdapter } from './windows-sapi/adapter';
import type { EmbeddedPool } from './worker-pool';

export interface EngineOptions {
  /** Folders scanned for Piper voices and neural model folders; see defaultModelDirs. */
  modelDirs?: string[];
  /** A system engine's program by engine id, where it is not on PATH (the engine_executables setting). */
  executables?: Record<string, string>;
  /**
   * The folder system engines' per-request temp folders (`orator-XXXXXX`: text in, WAV out) go
   * in; default os.tmpdir(). Created when missing. The gateway passes `<dataDir>/tmp` and calls
   * clearTempDir on it at start, so folders of a process killed mid-synthesis do not pile up.
   */
  tempDir?: string;
  /** How long one synthesis may run before the engine is stopped (engine_timeout); default ENGINE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** What starts system engines' programs (the gateway's spawn host); default: this process. */
  runTool?: ToolRunner;
}

export { clearTempDir } from './cli';

/**
 * Every engine Orator knows. The first available one is the default: the embedded eSpeak NG,
 * which runs everywhere. The rest go roughly from the most to the least natural.
 */
export function knownEngines(pool: EmbeddedPool, options: EngineOptions = {}): EngineAdapter[] {
  const modelDirs = options.modelDirs ?? defaultModelDirs();
  const { timeoutMs } = options;
  const inThread = timeoutMs === undefined ? {} : { timeoutMs };
  const program = (id: string) => {
    const configured = options.executables?.[id];
    return {
      ...(configured ? { program: configured } : {}),
      ...(options.tempDir !== undefined ? { tempDir: options.tempDir } : {}),
      ...(options.runTool ? { runTool: options.runTool } : {}),
      ...inThread,
    };
  };
  return [
    espeakWasmAdapter(pool, inThread),
    sherpaOnnxAdapter(modelDirs, pool.workerFile, {
      ...inThread,
      ...(options.tempDir !== undefined ? { tempDir: options.tempDir } : {}),
    }),
    piperAdapter(modelDirs, program('piper')),
    mimic3Adapter(program('mimic3')),
    macosSayAdapter(program('macos-say')),
    windowsSapiAdapter(program('windows-sapi')),
    rhvoiceAdapter(program('rhvoice')),
    picoWasmAdapter(pool, inThread),
    pico2waveAdapter(program('pico2wave')),
    festivalAdapter(program('festival')),
    fliteWasmAdapter(pool, inThread),
    fliteSystemAdapter(program('flite-system')),
    espeakSystemAdapter(program('espeak-ng-system')),
    gnuspeechAdapter(pool, inThread),
  ];
}
