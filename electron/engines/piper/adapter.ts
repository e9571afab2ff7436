import { cliAdapter, type CliOverrides } from '../cli-adapter';
import { printing } from '../identity';
import { findPiperVoice, piperVoices, scanPiperModels, type PiperModel } from './voice-config';

const ID = 'piper';

/**
 * Tells Piper TTS from Debian's unrelated `piper` (a gaming-mouse configurator): Piper's usage
 * names --model. Both the C++ build and piper1-gpl's Python CLI do.
 */
export const PIPER_IDENTITY = printing('Piper TTS', ['--help'], /--model\b/);

/**
 * The command line: text on stdin (Piper reads it there, and joins its lines when writing one
 * file), options in the spelling both the C++ and the Python CLI accept.
 */
export function piperCommand(model: PiperModel, speaker: number, rate: number, text: string, wavFile: string) {
  const args = ['--model', model.model, '--config', model.config, '--output-file', wavFile];
  if (model.speakers.length > 1) args.push('--speaker', String(speaker));
  if (rate !== 1) args.push('--length-scale', String(Math.round((1 / rate) * 1000) / 1000));
  return { args, input: text };
}

/** The `piper` program with the .onnx voices found in the model folders. */
export function piperAdapter(modelDirs: string[], overrides: CliOverrides = {}) {
  let models: PiperModel[] = [];
  return cliAdapter(
    {
      id: ID,
      name: 'Piper',
      capabilities: { rate: true, pitch: false, volume: false },
      program: 'piper',
      installHint: `Install Piper TTS (the piper program on PATH) and put voices (<name>.onnx with <name>.onnx.json) in ${modelDirs.join(' or ')}.`,
      identity: PIPER_IDENTITY,
      async voices() {
        const scan = await scanPiperModels(modelDirs);
        models = scan.models;
        return { voices: piperVoices(ID, models), warnings: scan.problems };
      },
      command(request, files) {
        const found = findPiperVoice(models, request.voice);
        if (!found) throw new Error(`Piper has no voice "${request.voice}"`);
        return piperCommand(found.model, found.speaker, request.rate, request.text, files.wavFile);
      },
    },
    overrides,
  );
}
