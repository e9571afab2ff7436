/** AAC in ADTS (what the `aac` encoder writes) taken apart into raw frames for an MP4 container. */

/** What an MP4 needs to know of an AAC track besides its frames. */
export interface AacTrack {
  /** The AudioSpecificConfig of ISO 14496-3 (2 bytes) that an MP4 `esds` carries. */
  config: Uint8Array;
  sampleRate: number;
  channels: number;
  /** The size of each raw frame (1024 samples each), in order. */
  frameSizes: number[];
}

export interface AacStream extends Omit<AacTrack, 'frameSizes'> {
  /** Raw AAC frames, without their ADTS headers. */
  frames: Uint8Array[];
}

const RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/**
 * Reads ADTS pushed in pieces of any size (a frame may be cut between two pushes) and hands back
 * the raw frames; throws on bytes that are not ADTS.
 */
export class AdtsReader {
  private pending = new Uint8Array(0);
  private read = 0;
  private header: { profile: number; rateIndex: number; channels: number } | null = null;
  readonly frameSizes: number[] = [];

  push(bytes: Uint8Array): Uint8Array[] {
    const data = this.pending.length > 0 ? concat(this.pending, bytes) : bytes;
    const frames: Uint8Array[] = [];
    let at = 0;
    while (at + 7 <= data.length) {
      if (data[at] !== 0xff || (data[at + 1]! & 0xf6) !== 0xf0) throw new Error(`No ADTS frame at byte ${this.read + at}`);
      const length = ((data[at + 3]! & 3) << 11) | (data[at + 4]! << 3) | (data[at + 5]! >> 5);
      const headerBytes = data[at + 1]! & 1 ? 7 : 9;
      if (length < headerBytes) throw new Error(`A malformed ADTS frame at byte ${this.read + at}`);
      if (at + length > data.length) break;
      this.header ??= {
        profile: data[at + 2]! >> 6,
        rateIndex: (data[at + 2]! >> 2) & 0xf,
        channels: ((data[at + 2]! & 1) << 2) | (data[at + 3]! >> 6),
      };
      const frame = data.slice(at + headerBytes, at + length);
      frames.push(frame);
      this.frameSizes.push(frame.length);
      at += length;
    }
    this.read += at;
    this.pending = data.slice(at);
    return frames;
  }

  /** The track, once every byte is pushed. */
  track(): AacTrack {
    if (this.pending.length > 0) throw new Error(`A truncated ADTS frame at byte ${this.read}`);
    if (!this.header) throw new Error('No AAC frames');
    const { profile, rateIndex, channels } = this.header;
    const objectType = profile + 1;
    const config = new Uint8Array([(objectType << 3) | (rateIndex >> 1), ((rateIndex & 1) << 7) | (channels << 3)]);
    return { config, sampleRate: RATES[rateIndex] ?? 0, channels, frameSizes: this.frameSizes };
  }
}

/** A whole ADTS stream's frames and track. */
export function parseAdts(bytes: Uint8Array): AacStream {
  const reader = new AdtsReader();
  const frames = reader.push(bytes);
  const { frameSizes: _sizes, ...track } = reader.track();
  return { ...track, frames };
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
