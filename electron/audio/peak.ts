/**
 * The largest absolute sample of samples[start, end), or `floor` if larger. Branch-free (the
 * absolute value by sign mask): speech swings between signs at random, which defeats branch
 * prediction. For a few samples; windowPeaks() scans hours of audio.
 */
export function absolutePeak(samples: Int16Array, start: number, end: number, floor = 0): number {
  let peak = floor;
  for (let i = start; i < end; i++) {
    const sample = samples[i]!;
    const sign = sample >> 31;
    const magnitude = (sample ^ sign) - sign;
    peak = magnitude > peak ? magnitude : peak;
  }
  return peak;
}

/**
 * The absolute peak of each window of `window` samples from `start` on (the last window may be
 * shorter): the inner loop of every waveform and silence analysis, over every sample of hours of
 * audio. WebAssembly SIMD takes eight samples an instruction, about ten times the scalar loop.
 * The samples go through the module's memory a slice at a time, so it stays at two pages.
 */
export function windowPeaks(samples: Int16Array, start: number, window: number): Uint16Array {
  const peaks = new Uint16Array(Math.max(0, Math.ceil((samples.length - start) / window)));
  const kernel = (scanner ??= new PeakScanner());
  const perSlice = Math.max(1, Math.floor(SLICE_SAMPLES / window));
  for (let w = 0; w < peaks.length; w += perSlice) {
    const from = start + w * window;
    peaks.set(kernel.scan(samples.subarray(from, Math.min(samples.length, from + perSlice * window)), window), w);
  }
  return peaks;
}

const SLICE_SAMPLES = 32768;
const PAGE_BYTES = 65536;
let scanner: PeakScanner | undefined;

/** The compiled kernel and its memory: samples from byte 0, the windows' peaks after them. */
class PeakScanner {
  private readonly memory: WebAssembly.Memory;
  private readonly windows: (samplesEnd: number, windowBytes: number, peaksAt: number) => void;

  constructor() {
    const { exports } = new WebAssembly.Instance(new WebAssembly.Module(peakModule()));
    this.memory = exports.memory as WebAssembly.Memory;
    this.windows = exports.windows as PeakScanner['windows'];
  }

  scan(slice: Int16Array, window: number): Uint16Array {
    const count = Math.ceil(slice.length / window);
    const peaksAt = slice.byteLength;
    const needed = peaksAt + count * 2;
    if (needed > this.memory.buffer.byteLength) this.memory.grow(Math.ceil((needed - this.memory.buffer.byteLength) / PAGE_BYTES));
    new Int16Array(this.memory.buffer, 0, slice.length).set(slice);
    this.windows(slice.byteLength, window * 2, peaksAt);
    return new Uint16Array(this.memory.buffer, peaksAt, count);
  }
}

// The module, in WebAssembly's binary format (https://webassembly.github.io/spec/core/binary/).
const I32 = 0x7f;
const V128 = 0x7b;
const op = {
  block: [0x02, 0x40],
  loop: [0x03, 0x40],
  end: [0x0b],
  br: (depth: number) => [0x0c, depth],
  brIf: (depth: number) => [0x0d, depth],
  select: [0x1b],
  get: (local: number) => [0x20, local],
  set: (local: number) => [0x21, local],
  i32: (value: number) => [0x41, ...signedLeb(value)],
  load16: [0x2e, 0x01, 0x00],
  store16: [0x3b, 0x01, 0x00],
  geU: [0x4f],
  gtU: [0x4b],
  ltU: [0x49],
  gtS: [0x4a],
  ltS: [0x48],
  add: [0x6a],
  sub: [0x6b],
  v128Load: [0xfd, 0x00, 0x00, 0x00],
  v128Zero: [0xfd, 0x0c, ...new Array<number>(16).fill(0)],
  shuffle: (lanes: number[]) => [0xfd, 0x0d, ...lanes],
  lane0: [0xfd, 0x18, 0x00],
  minS: [0xfd, 0x96, 0x01],
  maxS: [0xfd, 0x98, 0x01],
};

/**
 * windows(samplesEnd, windowBytes, peaksAt): for each window of the 16-bit samples in bytes
 * [0, samplesEnd), its largest and smallest sample, eight lanes at a time and the rest one by one;
 * stores max(largest, -smallest) as a 16-bit peak from byte peaksAt on.
 */
function peakModule(): Uint8Array<ArrayBuffer> {
  const [end, windowBytes, out, pos, windowEnd, hi, lo, h, l, sample] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9];
  // folds the eight lanes into lane 0: the upper half onto the lower, then its upper half, then one lane
  const fold = (vector: number, combine: number[]) =>
    [
      [8, 9, 10, 11, 12, 13, 14, 15, 0, 1, 2, 3, 4, 5, 6, 7],
      [4, 5, 6, 7, 0, 1, 2, 3, 8, 9, 10, 11, 12, 13, 14, 15],
      [2, 3, 0, 1, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15],
    ].flatMap((lanes) => [...op.get(vector), ...op.get(vector), ...op.get(vector), ...op.shuffle(lanes), ...combine, ...op.set(vector)]);
  const body = [
    ...op.block,
    ...op.loop, // a window
    ...[...op.get(pos), ...op.get(end), ...op.geU, ...op.brIf(1)],
    // windowEnd = min(pos + windowBytes, end)
    ...[...op.get(pos), ...op.get(windowBytes), ...op.add, ...op.get(end)],
    ...[...op.get(pos), ...op.get(windowBytes), ...op.add, ...op.get(end), ...op.ltU, ...op.select, ...op.set(windowEnd)],
    ...[...op.v128Zero, ...op.set(hi), ...op.v128Zero, ...op.set(lo)],
    ...op.block,
    ...op.loop, // eight samples at a time
    ...[...op.get(pos), ...op.i32(16), ...op.add, ...op.get(windowEnd), ...op.gtU, ...op.brIf(1)],
    ...[...op.get(hi), ...op.get(pos), ...op.v128Load, ...op.maxS, ...op.set(hi)],
    ...[...op.get(lo), ...op.get(pos), ...op.v128Load, ...op.minS, ...op.set(lo)],
    ...[...op.get(pos), ...op.i32(16), ...op.add, ...op.set(pos), ...op.br(0)],
    ...op.end,
    ...op.end,
    ...fold(hi, op.maxS),
    ...fold(lo, op.minS),
    ...[...op.get(hi), ...op.lane0, ...op.set(h), ...op.get(lo), ...op.lane0, ...op.set(l)],
    ...op.block,
    ...op.loop, // the rest, one sample at a time
    ...[...op.get(pos), ...op.get(windowEnd), ...op.geU, ...op.brIf(1)],
    ...[...op.get(pos), ...op.load16, ...op.set(sample)],
    ...[...op.get(sample), ...op.get(h), ...op.get(sample), ...op.get(h), ...op.gtS, ...op.select, ...op.set(h)],
    ...[...op.get(sample), ...op.get(l), ...op.get(sample), ...op.get(l), ...op.ltS, ...op.select, ...op.set(l)],
    ...[...op.get(pos), ...op.i32(2), ...op.add, ...op.set(pos), ...op.br(0)],
    ...op.end,
    ...op.end,
    // the peak: max(h, -l), stored, and on to the next window
    ...[...op.i32(0), ...op.get(l), ...op.sub, ...op.set(l)],
    ...[...op.get(out), ...op.get(h), ...op.get(l), ...op.get(h), ...op.get(l), ...op.gtS, ...op.select, ...op.store16],
    ...[...op.get(out), ...op.i32(2), ...op.add, ...op.set(out), ...op.br(0)],
    ...op.end,
    ...op.end,
    ...op.end,
  ];
  // locals after the three parameters: pos, windowEnd (i32); hi, lo (v128); h, l, sample (i32)
  const locals = [3, 2, I32, 2, V128, 3, I32];
  const code = [...locals, ...body];
  const name = (text: string) => [text.length, ...Buffer.from(text)];
  return new Uint8Array([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 3, I32, I32, I32, 0]), // type: (i32, i32, i32) -> ()
    ...section(3, [1, 0]), // function 0 has type 0
    ...section(5, [1, 0x00, 2]), // memory: two pages, growable
    ...section(7, [2, ...name('memory'), 0x02, 0, ...name('windows'), 0x00, 0]),
    ...section(10, [1, ...unsignedLeb(code.length), ...code]),
  ]);
}

function section(id: number, content: number[]): number[] {
  return [id, ...unsignedLeb(content.length), ...content];
}

function unsignedLeb(value: number): number[] {
  const bytes: number[] = [];
  do {
    const byte = value & 0x7f;
    value >>>= 7;
    bytes.push(value ? byte | 0x80 : byte);
  } while (value);
  return bytes;
}

function signedLeb(value: number): number[] {
  const bytes: number[] = [];
  for (;;) {
    const byte = value & 0x7f;
    value >>= 7;
    const done = (value === 0 && !(byte & 0x40)) || (value === -1 && byte & 0x40);
    bytes.push(done ? byte : byte | 0x80);
    if (done) return bytes;
  }
}
