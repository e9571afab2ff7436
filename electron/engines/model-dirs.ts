import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../contract/errors';
import { defaultDataDir } from '../storage/data-dir';
import { trustedFolder, UntrustedProgram } from './executable';

/**
 * Folders scanned for user-supplied voice models (Piper .onnx + .onnx.json, sherpa-onnx model
 * folders): ORATOR_MODELS_DIR (a path list), else "models" in the data dir; and the folders
 * where Piper's own tools download voices.
 */
export function defaultModelDirs(dataDir = defaultDataDir(), env = process.env, home = os.homedir()): string[] {
  const configured = env.ORATOR_MODELS_DIR?.split(path.delimiter).filter(Boolean);
  const own = configured?.length ? configured : [path.join(dataDir, 'models')];
  return [...own, path.join(home, '.local', 'share', 'piper-voices'), path.join(home, '.local', 'share', 'piper')];
}

/** The models_dir setting, vetted before it is saved: a folder Orator would load models from. */
export async function vetModelsDir(dir: string): Promise<void> {
  try {
    await trustedFolder(dir);
  } catch (error) {
    if (!(error instanceof UntrustedProgram)) throw error;
    throw new ApiError('invalid_models_dir', `models_dir: ${error.message}.`, { cause: error });
  }
}
