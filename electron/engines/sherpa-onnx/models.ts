/**
 * Neural model folders in the layout sherpa-onnx publishes them: one folder per model with its
 * .onnx file(s), tokens.txt and espeak-ng-data/ or lexicon.txt. Only the files are checked
 * here; loading happens in the model process (host.ts).
 */
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Value } from 'typebox/value';
import { VOICE_MANIFEST_FILE, VoiceManifest } from '../../contract/voice-library';
import { toBcp47 } from '../engine';
import { parsePiperConfig } from '../piper/voice-config';

export type ModelKind = 'vits' | 'kokoro' | 'matcha';

/** What the model process needs to load a model; plain data, sent over IPC. */
export interface ModelSpec {
  /** The folder: also the model's identity. */
  dir: string;
  kind: ModelKind;
  /** VITS/Kokoro: the model; Matcha: the acoustic model. */
  model: string;
  /** Matcha only. */
  vocoder?: string;
  /** Kokoro only. */
  voices?: string;
  tokens: string;
  lexicon?: string;
  dataDir?: string;
}

export interface ModelFolder {
  spec: ModelSpec;
  /** The folder name, used in voice ids. */
  key: string;
  language: string;
  /** Speaker names by id, from the voice library's manifest or a Piper .onnx.json beside the model. */
  speakerNames?: string[];
  /** The voice library's name for it, when it installed the folder. */
  title?: string;
}

/** Debian's espeak-ng-data, for Piper models that come without their own. */
const SYSTEM_ESPEAK_DATA = [
  '/usr/lib/x86_64-linux-gnu/espeak-ng-data',
  '/usr/lib/aarch64-linux-gnu/espeak-ng-data',
  '/usr/share/espeak-ng-data',
];

const VOCODER = /vocos|hifigan|vocoder/i;

/** The voice library's manifest (orator-voice.json), when it installed the folder. */
export async function readVoiceManifest(dir: string): Promise<VoiceManifest | undefined> {
  try {
    const json: unknown = JSON.parse(await readFile(path.join(dir, VOICE_MANIFEST_FILE), 'utf8'));
    return Value.Check(VoiceManifest, json) ? json : undefined;
  } catch {
    return undefined;
  }
}

/** espeak-ng-data for a model without its own: the library's shared component beside it, else the system's. */
function sharedEspeakData(dir: string): string | undefined {
  const shared = path.join(path.dirname(dir), 'espeak-ng-data');
  if (existsSync(path.join(shared, 'phontab'))) return shared;
  return SYSTEM_ESPEAK_DATA.find((d) => existsSync(d));
}

/** Checks one folder; throws a sentence naming the folder and what is wrong when it is not a usable model. */
export async function readModelFolder(dir: string): Promise<ModelFolder | null> {
  const files = await readdir(dir).catch(() => [] as string[]);
  const onnx = files.filter((f) => f.endsWith('.onnx')).sort();
  if (onnx.length === 0) return null;
  const hasTokens = files.includes('tokens.txt');
  const piperJson = onnx.map((f) => `${f}.json`).find((f) => files.includes(f));
  // A plain Piper voice (.onnx + .onnx.json, no tokens.txt) belongs to the piper engine.
  if (!hasTokens && piperJson) return null;
  const fail = (what: string) => {
    throw new Error(`${dir}: ${what}`);
  };
  if (!hasTokens) fail('no tokens.txt beside the .onnx model (sherpa-onnx needs it)');
  const at = (f: string) => path.join(dir, f);
  const lexicon = files.includes('lexicon.txt') ? at('lexicon.txt') : undefined;
  const dataDir = files.includes('espeak-ng-data') ? at('espeak-ng-data') : undefined;
  const shared = { dir, tokens: at('tokens.txt'), ...(lexicon ? { lexicon } : {}), ...(dataDir ? { dataDir } : {}) };
  const manifest = await readVoiceManifest(dir);

  let spec: ModelSpec;
  if (files.includes('voices.bin')) {
    if (onnx.length !== 1) fail(`a Kokoro model needs exactly one .onnx file, found ${onnx.length}`);
    spec = { ...shared, kind: 'kokoro', model: at(onnx[0]!), voices: at('voices.bin') };
  } else if (onnx.length === 2 && onnx.some((f) => VOCODER.test(f))) {
    const vocoder = onnx.find((f) => VOCODER.test(f))!;
    spec = { ...shared, kind: 'matcha', model: at(onnx.find((f) => f !== vocoder)!), vocoder: at(vocoder) };
  } else if (onnx.length === 1 && manifest?.vocoder) {
    // a Matcha voice from the library: its vocoder is a component in a folder of its own
    spec = { ...shared, kind: 'matcha', model: at(onnx[0]!), vocoder: path.resolve(dir, manifest.vocoder) };
  } else if (onnx.length === 1) {
    spec = { ...shared, kind: 'vits', model: at(onnx[0]!) };
  } else {
    return fail(`${onnx.length} .onnx files and no voices.bin: cannot tell which is the model`);
  }
  if (spec.dataDir && !existsSync(path.join(spec.dataDir, 'phontab')))
    fail(`${spec.dataDir} is not a complete espeak-ng-data folder (no phontab)`);
  if (!spec.lexicon && !spec.dataDir) {
    const fallback = sharedEspeakData(dir);
    if (!fallback) fail('neither lexicon.txt nor espeak-ng-data/ (and no system espeak-ng-data to fall back on)');
    spec.dataDir = fallback;
  }

  const key = path.basename(dir);
  const named = manifest ? { title: manifest.name, ...(manifest.speaker_names ? { speakerNames: manifest.speaker_names } : {}) } : {};
  if (piperJson) {
    const config = parsePiperConfig(await readFile(at(piperJson), 'utf8'), spec.model, at(piperJson));
    const names = config.speakers.map((s) => s.name ?? `speaker ${s.id}`);
    return { spec, key, language: config.language, ...(config.speakers.length > 1 ? { speakerNames: names } : {}), ...named };
  }
  const language = manifest && manifest.language !== 'mul' && manifest.language !== 'und' ? manifest.language : languageFromName(key);
  return { spec, key, language, ...named };
}

/** "vits-piper-en_US-amy-low" → "en-US"; "und" when the name holds no locale. */
export function languageFromName(name: string): string {
  const match = /(?:^|[-_])([a-z]{2,3})[_-]([A-Z]{2})(?:[-_]|$)/.exec(name);
  return match ? toBcp47(`${match[1]}-${match[2]}`) : 'und';
}

/** Every model folder directly inside `dirs`; malformed ones become problems, not models. */
export async function scanModelFolders(dirs: string[]): Promise<{ folders: ModelFolder[]; problems: string[] }> {
  const folders: ModelFolder[] = [];
  const problems: string[] = [];
  for (const dir of dirs) {
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.filter((e) => e.isDirectory()).sort((a, b) => a.name.localeCompare(b.name))) {
      try {
        const folder = await readModelFolder(path.join(dir, entry.name));
        if (folder && !folders.some((f) => f.key === folder.key)) folders.push(folder);
      } catch (error) {
        problems.push((error as Error).message);
      }
    }
  }
  return { folders, problems };
}
