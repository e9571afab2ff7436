import type { Voice } from '../../contract';
import type { EngineAdapter, Probe } from '../engine';
import type { Pcm } from '../../audio/pcm';

import { NEURAL } from '../piper/voice-config';
import { ModelProcess, type ModelProcessOptions } from './client';
import { scanModelFolders, type ModelFolder } from './models';

const ID = 'sherpa-onnx';

interface LoadedVoice {
  folder: ModelFolder;
  speaker: number;
}

/** Voices of one loaded model: one per speaker, "<folder>" or "<folder>#<speaker id>". */
export function modelVoices(folder: ModelFolder, sampleRate: number, numSpeakers: number): Voice[] {
  const count = Math.max(1, numSpeakers);
  return Array.from({ length: count }, (_, speaker) => ({
    id: `${ID}:${count > 1 ? `${folder.key}#${speaker}` : folder.key}`,
    name:
      count > 1
        ? `${folder.title ?? folder.key} (${folder.speakerNames?.[speaker] ?? `speaker ${speaker}`})`
        : (folder.title ?? folder.key),
    language: folder.language,
    sampleRate,
    quality: NEURAL,
  }));
}

/**
 * Piper (VITS), Kokoro and Matcha models from the user's model folders, run by sherpa-onnx-node
 * in child processes: one per model, started at its first request and kept warm after it, so that
 * voices in use do not evict each other's loaded model. Probing loads every model once (then lets
 * its process go), so a malformed one is reported (as a warning, or as the reason when none
 * loads) instead of failing a request later.
 */
export function sherpaOnnxAdapter(
  modelDirs: string[],
  workerFile: string,
  options: Pick<ModelProcessOptions, 'timeoutMs' | 'tempDir'> = {},
): EngineAdapter {
  const processes = new Map<string, ModelProcess>();
  const processOf = (dir: string) => {
    let host = processes.get(dir);
    if (!host) processes.set(dir, (host = new ModelProcess(workerFile, options)));
    return host;
  };
  let voices = new Map<string, LoadedVoice>();
  return {
    id: ID,
    name: 'Neural voices (sherpa-onnx)',
    kind: 'neural',
    capabilities: { rate: true, pitch: false, volume: false },
    async probe(): Promise<Probe> {
      const { folders, problems } = await scanModelFolders(modelDirs);
      const listed: Voice[] = [];
      const found = new Map<string, LoadedVoice>();
      for (const [dir, host] of processes) {
        if (!folders.some((f) => f.spec.dir === dir)) {
          await host.release();
          processes.delete(dir);
        }
      }
      for (const folder of folders) {
        const host = processOf(folder.spec.dir);
        try {
          const loaded = await host.request({ type: 'load', spec: folder.spec });
          modelVoices(folder, loaded.sampleRate, loaded.numSpeakers).forEach((voice, speaker) => {
            listed.push(voice);
            found.set(voice.id.slice(ID.length + 1), { folder, speaker });
          });
        } catch (error) {
          problems.push(`${folder.spec.dir}: the model could not be loaded (${(error as Error).message})`);
        }
        // Loaded models hold memory; they load again on first use. Queued like a request, so that
        // a request that came in meanwhile is not killed mid-synthesis.
        await host.release();
      }
      voices = found;
      if (listed.length === 0) {
        const where = `Put model folders (model .onnx, tokens.txt, espeak-ng-data/ or lexicon.txt) in ${modelDirs.join(' or ')}.`;
        return {
          available: false,
          reason: problems.length ? `No model loads: ${problems.join('; ')}. ${where}` : `No neural models found. ${where}`,
        };
      }
      return { available: true, voices: listed, defaultVoice: listed[0]!.id, ...(problems.length ? { warnings: problems } : {}) };
    },
    async synthesize(request, { lane, signal }): Promise<Pcm> {
      const voice = voices.get(request.voice);
      if (!voice) throw new Error(`No neural voice "${request.voice}"`);
      const reply = await processOf(voice.folder.spec.dir).request(
        { type: 'synthesize', spec: voice.folder.spec, text: request.text, speaker: voice.speaker, speed: request.rate },
        lane,
        signal,
      );
      return { sampleRate: reply.sampleRate, samples: reply.samples ?? new Int16Array(0) };
    },
    async release(): Promise<void> {
      await Promise.all([...processes.values()].map((host) => host.release()));
    },
  };
}
