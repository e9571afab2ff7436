/**
 * Bench support: a VITS model folder with the compute shape of a real Piper `low` voice's decoder,
 * with random weights, so that the neural bench measures the gateway against a synthesis that costs
 * what a real voice's costs (no weights can be downloaded here). The token ids are held for
 * FRAMES_PER_TOKEN frames (the duration predictor's job in a real voice), spread over the latent
 * channels (the flow's), then run through Piper's HiFi-GAN generator as its training code builds it
 * for `x-low`/`low`/`medium` (rhasspy/piper, piper_train/vits: resblock "2", upsampling 8, 8, 4 with
 * kernels 16, 16, 8 from 256 channels, residual kernels 3, 5, 7 with dilations (1, 2), (2, 6),
 * (3, 12)). Inputs, output and metadata as the test model's (tiny-vits.ts), so sherpa-onnx loads it
 * the same way. What it says is noise, as long as the text: PIPER_SHAPED.samplesPerToken a character.
 */
import { FLOAT, INT64, type OnnxModel, type OnnxNode, type OnnxTensor } from './onnx-writer';
import { ints, scalar, TINY_VITS, VITS_IO, vitsMetadata, writeVitsFolder } from './tiny-vits';

const HOP = 256; // 8 × 8 × 4
const FRAMES_PER_TOKEN = 5; // 80 ms a character at 16 kHz: the pace of speech, as the test model's 75 ms

export const PIPER_SHAPED = {
  folder: 'vits-coqui-en_US-piper-shaped',
  /** Piper `low` voices: the medium network at 16 kHz. */
  sampleRate: 16_000,
  samplesPerToken: FRAMES_PER_TOKEN * HOP,
  /** inter_channels of x-low: 96; low and medium: 192. */
  latentChannels: 192,
  upsampleInitialChannel: 256,
  upsample: [
    { rate: 8, kernel: 16 },
    { rate: 8, kernel: 16 },
    { rate: 4, kernel: 8 },
  ],
  resblocks: [
    { kernel: 3, dilations: [1, 2] },
    { kernel: 5, dilations: [2, 6] },
    { kernel: 7, dilations: [3, 12] },
  ],
};

/** Samples the model gives for `text` at `rate`, as tinyVitsLength (whole frames per token). */
export function piperShapedLength(text: string, rate = 1): number {
  const known = [...text.toLowerCase()].filter((c) => TINY_VITS.alphabet.includes(c)).length;
  return known * Math.trunc(FRAMES_PER_TOKEN / rate) * HOP;
}

/** Deterministic uniform weights of unit variance per output (scaled by the fan-in), as a trained net's roughly are. */
function weights(name: string, dims: number[], fanIn: number): OnnxTensor {
  const count = dims.reduce((a, b) => a * b, 1);
  const scale = Math.sqrt(3 / fanIn);
  const seed = [...name].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 9973, 7);
  const values = Array.from({ length: count }, (_, i) => {
    const x = Math.sin(i * 12.9898 + seed * 78.233) * 43758.5453;
    return (2 * (x - Math.floor(x)) - 1) * scale;
  });
  return { name, type: FLOAT, dims, values };
}

class Graph {
  readonly nodes: OnnxNode[] = [];
  readonly initializers: OnnxTensor[] = [];
  private count = 0;

  op(op: string, inputs: string[], attributes?: OnnxNode['attributes'], output = `t${this.count++}`): string {
    this.nodes.push({ op, inputs, outputs: [output], ...(attributes ? { attributes } : {}) });
    return output;
  }
  leaky(x: string, alpha = 0.1): string {
    return this.op('LeakyRelu', [x], { alpha: { float: alpha } });
  }
  conv(x: string, from: number, to: number, kernel: number, dilation = 1, bias = true): string {
    const name = `conv${this.count}`;
    this.initializers.push(weights(`${name}.w`, [to, from, kernel], from * kernel));
    if (bias) this.initializers.push({ name: `${name}.b`, type: FLOAT, dims: [to], values: new Array<number>(to).fill(0) });
    const pad = (kernel * dilation - dilation) / 2;
    return this.op('Conv', bias ? [x, `${name}.w`, `${name}.b`] : [x, `${name}.w`], {
      kernel_shape: { ints: [kernel] },
      dilations: { ints: [dilation] },
      pads: { ints: [pad, pad] },
    });
  }
  upsample(x: string, from: number, to: number, rate: number, kernel: number): string {
    const name = `up${this.count}`;
    this.initializers.push(weights(`${name}.w`, [from, to, kernel], (from * kernel) / rate));
    this.initializers.push({ name: `${name}.b`, type: FLOAT, dims: [to], values: new Array<number>(to).fill(0) });
    const pad = (kernel - rate) / 2;
    return this.op('ConvTranspose', [x, `${name}.w`, `${name}.b`], {
      kernel_shape: { ints: [kernel] },
      strides: { ints: [rate] },
      pads: { ints: [pad, pad] },
    });
  }
}

/** Piper's generator (vits/models.py, Generator with ResBlock2), weight norm folded as its export does. */
function generator(graph: Graph, latent: string): string {
  const { latentChannels, upsampleInitialChannel, upsample, resblocks } = PIPER_SHAPED;
  let x = graph.conv(latent, latentChannels, upsampleInitialChannel, 7);
  let channels = upsampleInitialChannel;
  for (const { rate, kernel } of upsample) {
    x = graph.upsample(graph.leaky(x), channels, channels / 2, rate, kernel);
    channels /= 2;
    const outs = resblocks.map((block) => {
      let y = x;
      for (const dilation of block.dilations)
        y = graph.op('Add', [graph.conv(graph.leaky(y), channels, channels, block.kernel, dilation), y]);
      return y;
    });
    const sum = outs.slice(1).reduce((a, b) => graph.op('Add', [a, b]), outs[0]!);
    x = graph.op('Mul', [sum, 'one_third']);
  }
  return graph.op('Tanh', [graph.conv(graph.leaky(x, 0.01), channels, 1, 7, 1, false)]);
}

function piperShapedGraph(): OnnxModel {
  const graph = new Graph();
  graph.initializers.push(
    scalar('loudness_per_id', 0.02),
    scalar('loudness_floor', 0.2),
    scalar('frames_per_token', FRAMES_PER_TOKEN),
    scalar('one_third', 1 / 3),
    ints('index_one', [1], []),
    ints('axis_last', [2]),
    ints('axis_first', [0]),
    ints('tile_prefix', [1, 1]),
    ints('frames_shape', [1, 1, -1]),
    weights('spread', [1, PIPER_SHAPED.latentChannels, 1], 1),
  );
  const ids = graph.op('Cast', ['x'], { to: { int: FLOAT } });
  const level = graph.op('Add', [graph.op('Mul', [ids, 'loudness_per_id']), 'loudness_floor']);
  // frames per token: FRAMES_PER_TOKEN × the length scale (scales[1]), as the duration predictor's output
  const lengthScale = graph.op('Gather', ['scales', 'index_one'], { axis: { int: 0 } });
  const repeat = graph.op('Cast', [graph.op('Mul', [lengthScale, 'frames_per_token'])], { to: { int: INT64 } });
  const repeats = graph.op('Concat', ['tile_prefix', graph.op('Unsqueeze', [repeat, 'axis_first'])], { axis: { int: 0 } });
  const held = graph.op('Tile', [graph.op('Unsqueeze', [level, 'axis_last']), repeats]);
  const latent = graph.op('Mul', [graph.op('Reshape', [held, 'frames_shape']), 'spread']);
  graph.op('Identity', [generator(graph, latent)], undefined, 'y');
  return {
    ...VITS_IO,
    nodes: graph.nodes,
    initializers: graph.initializers,
    metadata: vitsMetadata(PIPER_SHAPED.sampleRate),
  };
}

/** Parameters of the generated network (weights and biases). */
export function piperShapedParameters(): number {
  return piperShapedGraph().initializers.reduce((sum, t) => sum + (t.type === FLOAT ? t.values.length : 0), 0);
}

/** Writes the model folder (model.onnx, tokens.txt) into `modelsDir`; returns its path. */
export function writePiperShapedVits(modelsDir: string): Promise<string> {
  return writeVitsFolder(modelsDir, PIPER_SHAPED.folder, piperShapedGraph());
}
