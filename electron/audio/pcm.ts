/** 16-bit signed mono PCM at the engine's native rate: what every engine gives and every encoder takes. */
export interface Pcm {
  sampleRate: number;
  samples: Int16Array;
}
