/**
 * Test support: a tiny VITS-shaped model folder in the layout sherpa-onnx reads, written by the
 * test, so that neural synthesis is exercised without downloaded weights. The graph has the inputs
 * and output of a Coqui VITS export (token ids, their count, the three scales) and the metadata
 * sherpa-onnx reads from it; tokens.txt maps characters to ids (the "characters" frontend). What it
 * says is a tone, not speech: each known character of the text becomes SAMPLES_PER_TOKEN samples
 * (times the length scale, 1 / rate) of a 220 Hz sine whose loudness follows the token's id.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { encodeOnnxModel, FLOAT, INT64, type OnnxModel, type OnnxTensor } from './onnx-writer';

export const TINY_VITS = {
  /** Holds a locale, so that the folder's voice gets a language (models.ts reads it from the name). */
  folder: 'vits-coqui-en_US-tiny',
  sampleRate: 16_000,
  /** 75 ms per character at rate 1, about the pace of real speech. */
  samplesPerToken: 1200,
  /** The characters it knows; others are skipped by sherpa-onnx, as a real model's unknown symbols. */
  alphabet: " abcdefghijklmnopqrstuvwxyz.,!?'",
  toneHz: 220,
};

/** Samples the model gives for `text` at `rate` (sherpa-onnx lower-cases the text first). */
export function tinyVitsLength(text: string, rate = 1): number {
  const known = [...text.toLowerCase()].filter((c) => TINY_VITS.alphabet.includes(c)).length;
  return known * Math.trunc(TINY_VITS.samplesPerToken / rate);
}

/** The opset, inputs and output of a Coqui VITS export, as sherpa-onnx feeds and reads them. */
export const VITS_IO: Pick<OnnxModel, 'opset' | 'inputs' | 'outputs'> = {
  opset: 13,
  inputs: [
    { name: 'x', type: INT64, shape: [1, 'num_tokens'] },
    { name: 'x_length', type: INT64, shape: [1] },
    { name: 'scales', type: FLOAT, shape: [3] },
  ],
  outputs: [{ name: 'y', type: FLOAT }],
};

export const scalar = (name: string, value: number): OnnxTensor => ({ name, type: FLOAT, dims: [], values: [value] });
export const ints = (name: string, values: number[], dims = [values.length]): OnnxTensor => ({ name, type: INT64, dims, values });

function tinyVitsGraph(): OnnxModel {
  const { sampleRate, samplesPerToken, toneHz } = TINY_VITS;
  return {
    ...VITS_IO,
    initializers: [
      scalar('loudness_per_id', 0.02),
      scalar('loudness_floor', 0.2),
      scalar('samples_per_token', samplesPerToken),
      scalar('zero', 0),
      scalar('one', 1),
      scalar('radians_per_sample', (2 * Math.PI * toneHz) / sampleRate),
      ints('index_one', [1], []),
      ints('axis_last', [2]),
      ints('axis_first', [0]),
      ints('tile_prefix', [1, 1]),
      ints('flat_shape', [1, -1]),
    ],
    nodes: [
      // loudness per token, from its id
      { op: 'Cast', inputs: ['x'], outputs: ['ids'], attributes: { to: { int: FLOAT } } },
      { op: 'Mul', inputs: ['ids', 'loudness_per_id'], outputs: ['scaled_ids'] },
      { op: 'Add', inputs: ['scaled_ids', 'loudness_floor'], outputs: ['loudness'] },
      { op: 'Unsqueeze', inputs: ['loudness', 'axis_last'], outputs: ['loudness_3d'] },
      // samples per token: samples_per_token × length scale (scales[1])
      { op: 'Gather', inputs: ['scales', 'index_one'], outputs: ['length_scale'], attributes: { axis: { int: 0 } } },
      { op: 'Mul', inputs: ['length_scale', 'samples_per_token'], outputs: ['repeat_float'] },
      { op: 'Cast', inputs: ['repeat_float'], outputs: ['repeat'], attributes: { to: { int: INT64 } } },
      { op: 'Unsqueeze', inputs: ['repeat', 'axis_first'], outputs: ['repeat_1d'] },
      { op: 'Concat', inputs: ['tile_prefix', 'repeat_1d'], outputs: ['repeats'], attributes: { axis: { int: 0 } } },
      { op: 'Tile', inputs: ['loudness_3d', 'repeats'], outputs: ['held'] },
      { op: 'Reshape', inputs: ['held', 'flat_shape'], outputs: ['envelope'] },
      // a sine carrier as long as the envelope
      { op: 'Shape', inputs: ['envelope'], outputs: ['envelope_shape'] },
      { op: 'Gather', inputs: ['envelope_shape', 'index_one'], outputs: ['length'], attributes: { axis: { int: 0 } } },
      { op: 'Cast', inputs: ['length'], outputs: ['length_float'], attributes: { to: { int: FLOAT } } },
      { op: 'Range', inputs: ['zero', 'length_float', 'one'], outputs: ['t'] },
      { op: 'Mul', inputs: ['t', 'radians_per_sample'], outputs: ['phase'] },
      { op: 'Sin', inputs: ['phase'], outputs: ['carrier'] },
      { op: 'Mul', inputs: ['envelope', 'carrier'], outputs: ['y'] },
    ],
    metadata: vitsMetadata(sampleRate),
  };
}

/** The metadata sherpa-onnx reads from a Coqui VITS export with a characters frontend. */
export function vitsMetadata(sampleRate: number): Record<string, string> {
  return {
    model_type: 'vits',
    comment: 'coqui',
    frontend: 'characters',
    language: 'English',
    sample_rate: String(sampleRate),
    n_speakers: '0',
    add_blank: '0',
    use_eos_bos: '0',
    punctuation: '',
  };
}

/**
 * A raw Piper voice as rhasspy/piper-voices publishes it, in the same tone-per-token graph: the
 * inputs and output named as Piper's export names them (input, input_lengths, scales; output), no
 * metadata, and a `.onnx.json` whose phoneme_id_map covers the IPA eSpeak writes. Not sherpa-ready:
 * the voice library makes it so (tokens.txt, metadata).
 */
export const TINY_PIPER = { key: 'en_US-tiny-medium', sampleRate: TINY_VITS.sampleRate };

export function tinyPiperFiles(): { onnx: Buffer; json: string; modelCard: string } {
  const graph = tinyVitsGraph();
  const rename: Record<string, string> = { x: 'input', x_length: 'input_lengths', y: 'output' };
  const renamed = (name: string) => rename[name] ?? name;
  const onnx = encodeOnnxModel({
    ...graph,
    inputs: graph.inputs.map((v) => ({ ...v, name: renamed(v.name) })),
    outputs: graph.outputs.map((v) => ({ ...v, name: renamed(v.name) })),
    nodes: graph.nodes.map((n) => ({ ...n, inputs: n.inputs.map(renamed), outputs: n.outputs.map(renamed) })),
    metadata: {},
  });
  // Piper's specials first (pad, start, end), then ASCII and the IPA blocks eSpeak's phonemes come from.
  const symbols = ['_', '^', '$', ' ', ...range(0x21, 0x7e), ...range(0xe6, 0xf0), ...range(0x250, 0x2ff), '\u0303', '\n'];
  const map = Object.fromEntries(symbols.map((symbol, id) => [symbol, [id % 40]]));
  const json = JSON.stringify({
    audio: { sample_rate: TINY_PIPER.sampleRate, quality: 'medium' },
    espeak: { voice: 'en-us' },
    language: { code: 'en_US', family: 'en', region: 'US', name_english: 'English' },
    inference: { noise_scale: 0.667, length_scale: 1, noise_w: 0.8 },
    phoneme_type: 'espeak',
    num_symbols: symbols.length,
    num_speakers: 1,
    speaker_id_map: {},
    phoneme_id_map: map,
  });
  return { onnx, json, modelCard: '# Model card for en_US-tiny-medium\n\n* License: test data, no rights reserved\n' };
}

function range(from: number, to: number): string[] {
  return Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i));
}

/** Writes the model folder (model.onnx, tokens.txt) into `modelsDir`; returns its path. */
export function writeTinyVits(modelsDir: string): Promise<string> {
  return writeVitsFolder(modelsDir, TINY_VITS.folder, tinyVitsGraph());
}

/**
 * Writes a generated VITS model's folder: `graph` as model.onnx, and tokens.txt of
 * TINY_VITS.alphabet ("<symbol> <id>" per line; a line with only an id is the space).
 */
export async function writeVitsFolder(modelsDir: string, folder: string, graph: OnnxModel): Promise<string> {
  const dir = path.join(modelsDir, folder);
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'model.onnx'), encodeOnnxModel(graph));
  const tokens = [...TINY_VITS.alphabet].map((c, id) => (c === ' ' ? `${id}` : `${c} ${id}`));
  await writeFile(path.join(dir, 'tokens.txt'), tokens.join('\n') + '\n');
  return dir;
}
