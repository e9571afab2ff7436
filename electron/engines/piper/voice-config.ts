/** Piper voice files: `<name>.onnx` with its `<name>.onnx.json`, as Piper's voice repository ships them. */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { QualityTier, Voice } from '../../contract';
import { toBcp47 } from '../engine';

export interface PiperModel {
  /** The .onnx file. */
  model: string;
  /** Its .onnx.json. */
  config: string;
  /** File name without .onnx, e.g. "en_US-lessac-medium". */
  key: string;
  language: string;
  sampleRate: number;
  /** Piper's own label: x_low, low, medium, high. */
  quality?: string;
  /** Speaker names by id; one unnamed speaker for single-speaker voices. */
  speakers: { id: number; name?: string }[];
}

interface PiperJson {
  audio?: { sample_rate?: number; quality?: string };
  language?: { code?: string };
  espeak?: { voice?: string };
  dataset?: string;
  num_speakers?: number;
  speaker_id_map?: Record<string, number>;
}

/** Reads a voice's .onnx.json; throws a sentence naming the file when it is not a Piper voice config. */
export function parsePiperConfig(json: string, model: string, config: string): PiperModel {
  let parsed: PiperJson;
  try {
    parsed = JSON.parse(json) as PiperJson;
  } catch (error) {
    throw new Error(`${config} is not valid JSON (${(error as Error).message})`, { cause: error });
  }
  const sampleRate = parsed.audio?.sample_rate;
  if (!Number.isInteger(sampleRate)) throw new Error(`${config} has no audio.sample_rate: not a Piper voice config`);
  const code = parsed.language?.code ?? parsed.espeak?.voice ?? 'und';
  const names = Object.entries(parsed.speaker_id_map ?? {});
  const count = Math.max(1, parsed.num_speakers ?? 1);
  const speakers =
    count > 1 && names.length > 0
      ? names.map(([name, id]) => ({ id, name })).sort((a, b) => a.id - b.id)
      : Array.from({ length: count }, (_, id) => ({ id }));
  return {
    model,
    config,
    key: path.basename(model, '.onnx'),
    language: toBcp47(code),
    sampleRate: sampleRate!,
    ...(parsed.audio?.quality ? { quality: parsed.audio.quality } : {}),
    speakers,
  };
}

/** Every Piper voice in `dirs` and their sub-folders (one level: voice packs come in folders); problems as sentences. */
export async function scanPiperModels(dirs: string[]): Promise<{ models: PiperModel[]; problems: string[] }> {
  const models: PiperModel[] = [];
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const dir of dirs) {
    for (const folder of [dir, ...(await subfolders(dir))]) {
      const files = await readdir(folder).catch(() => [] as string[]);
      for (const file of files.filter((f) => f.endsWith('.onnx')).sort()) {
        const model = path.join(folder, file);
        const config = `${model}.json`;
        if (!files.includes(`${file}.json`) || seen.has(file)) continue;
        seen.add(file);
        try {
          models.push(parsePiperConfig(await readFile(config, 'utf8'), model, config));
        } catch (error) {
          problems.push((error as Error).message);
        }
      }
    }
  }
  return { models, problems };
}

async function subfolders(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  return entries.filter((e) => e.isDirectory()).map((e) => path.join(dir, e.name));
}

/** Neural voices all rank high; Piper's x_low/low/medium/high is kept in the name. */
export const NEURAL: QualityTier = 'high';

/** One Orator voice per model speaker: "<key>" or "<key>#<speaker>". */
export function piperVoices(engineId: string, models: PiperModel[]): Voice[] {
  return models.flatMap((m) =>
    m.speakers.map((speaker) => {
      const local = m.speakers.length > 1 ? `${m.key}#${speaker.name ?? speaker.id}` : m.key;
      const label = m.speakers.length > 1 ? `${m.key} (${speaker.name ?? `speaker ${speaker.id}`})` : m.key;
      return { id: `${engineId}:${local}`, name: label, language: m.language, sampleRate: m.sampleRate, quality: NEURAL };
    }),
  );
}

/** The model and speaker id of a voice of piperVoices. */
export function findPiperVoice(models: PiperModel[], local: string): { model: PiperModel; speaker: number } | null {
  const [key, speakerName] = local.split('#');
  const model = models.find((m) => m.key === key);
  if (!model) return null;
  if (speakerName === undefined) return { model, speaker: model.speakers[0]!.id };
  const speaker = model.speakers.find((s) => (s.name ?? String(s.id)) === speakerName);
  return speaker ? { model, speaker: speaker.id } : null;
}
