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
import type { SynthesisPool } from './worker-pool';

export interface EngineOptions {
  /** Folders scanned for Piper voices and neural model folders; see defaultModelDirs. */
  modelDirs?: string[];
}

/**
 * Every engine Orator knows. The first available one is the default: the embedded eSpeak NG,
 * which runs everywhere. The rest go roughly from the most to the least natural.
 */
export function allEngines(pool: SynthesisPool, options: EngineOptions = {}): EngineAdapter[] {
  const modelDirs = options.modelDirs ?? defaultModelDirs();
  return [
    espeakWasmAdapter(pool),
    sherpaOnnxAdapter(modelDirs, pool.workerFile),
    piperAdapter(modelDirs),
    mimic3Adapter(),
    macosSayAdapter(),
    windowsSapiAdapter(),
    rhvoiceAdapter(),
    picoWasmAdapter(pool),
    pico2waveAdapter(),
    festivalAdapter(),
    fliteWasmAdapter(pool),
    fliteSystemAdapter(),
    espeakSystemAdapter(),
    gnuspeechAdapter(pool),
  ];
}
