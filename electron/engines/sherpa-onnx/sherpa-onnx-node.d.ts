declare module 'sherpa-onnx-node' {
  /** The parts of sherpa-onnx-node's text-to-speech API that host.ts uses. */
  export class OfflineTts {
    constructor(config: object);
    readonly sampleRate: number;
    readonly numSpeakers: number;
    generate(request: { text: string; sid: number; speed: number }): { samples: Float32Array; sampleRate: number };
  }
  /** A CommonJS module: Node's ESM import sees its exports object as the default. */
  const sherpa: { OfflineTts: typeof OfflineTts };
  export default sherpa;
}
