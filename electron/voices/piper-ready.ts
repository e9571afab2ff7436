/**
 * A raw Piper voice (`<key>.onnx`, `<key>.onnx.json`, as rhasspy/piper-voices publishes it) made
 * ready for sherpa-onnx, which needs a tokens.txt and settings in the model's metadata: what
 * k2-fsa/sherpa-onnx's scripts/piper/add_meta_data.py does, so that a Piper voice speaks through
 * the bundled sherpa-onnx with neither Python nor a piper program.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { appendOnnxMetadata } from './onnx-metadata';

interface PiperConfig {
  audio?: { sample_rate?: number };
  espeak?: { voice?: string };
  lang_code?: string;
  language?: { name_english?: string };
  num_speakers?: number;
  phoneme_type?: string;
  phoneme_id_map?: Record<string, number | number[]>;
}

/** tokens.txt: "<phoneme> <id>" per line, the first id of each; the newline phoneme cannot be written. */
export function piperTokens(map: Record<string, number | number[]>): string {
  return Object.entries(map)
    .filter(([symbol]) => symbol !== '\n')
    .map(([symbol, ids]) => `${symbol} ${Array.isArray(ids) ? ids[0] : ids}\n`)
    .join('');
}

/** The metadata sherpa-onnx reads from a Piper model (add_meta_data.py's, with espeak-ng). */
export function piperMetadata(config: PiperConfig, file: string): Record<string, string | number> {
  const sampleRate = config.audio?.sample_rate;
  if (!Number.isInteger(sampleRate)) throw new Error(`${file} has no audio.sample_rate: not a Piper voice config`);
  const voice = config.lang_code ?? config.espeak?.voice;
  if (!voice) throw new Error(`${file} names no eSpeak voice (espeak.voice)`);
  if (config.phoneme_type === 'pinyin') {
    throw new Error(`${file}: this voice reads pinyin (g2pw), which only its sherpa-onnx archive carries; install that instead`);
  }
  return {
    model_type: 'vits',
    comment: 'piper',
    language: config.language?.name_english ?? voice,
    voice: voice === 'pt-PT' ? 'pt' : voice,
    version: 1,
    has_espeak: 1,
    has_g2pw: 0,
    n_speakers: config.num_speakers ?? 1,
    // a few published configs say 22500 for 22050
    sample_rate: sampleRate === 22500 ? 22050 : sampleRate!,
  };
}

/**
 * Makes the Piper voice in `dir` sherpa-ready in place: writes tokens.txt and appends the metadata
 * to the model. A folder that already has tokens.txt (a sherpa-onnx archive) is left as it is.
 */
export async function makePiperReady(dir: string): Promise<void> {
  const files = await readdir(dir);
  if (files.includes('tokens.txt')) return;
  const model = files.find((f) => f.endsWith('.onnx') && files.includes(`${f}.json`));
  if (!model) return;
  const configFile = path.join(dir, `${model}.json`);
  let config: PiperConfig;
  try {
    config = JSON.parse(await readFile(configFile, 'utf8')) as PiperConfig;
  } catch (error) {
    throw new Error(`${configFile} is not valid JSON (${(error as Error).message})`, { cause: error });
  }
  if (!config.phoneme_id_map) throw new Error(`${configFile} has no phoneme_id_map`);
  const metadata = piperMetadata(config, configFile);
  await writeFile(path.join(dir, 'tokens.txt'), piperTokens(config.phoneme_id_map));
  await appendOnnxMetadata(path.join(dir, model), metadata);
}
