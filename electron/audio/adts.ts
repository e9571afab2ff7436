/** AAC in ADTS (what the `aac` encoder writes) taken apart into raw frames for an MP4 container. */

/** What an MP4 needs to know of an AAC track besides its frames. */
export interface AacTrack {
  /** The AudioSpecificConfig of ISO 14496-3 (2 bytes) that an MP4 `esds` carries. */
  config: Uint8Array;
  sampleRate: number;
  channels: number;
  /**
   * The size of each raw frame (1024 samples each), in order. An ADTS frame's length is 13 bits,
   * so 16 bits hold any: a day at 48 kHz is 4 million frames, 8 MB.
   */
  frameSizes: Uint16Array;
}

/** AAC's sampling frequency indexes: a rate's place in this list. */
export const AAC_SAMPLE_RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];
/** AAC LC, the profile FFmpeg's encoder writes. */
const AAC_LC = 2;

/** The AudioSpecificConfig (ISO 14496-3, 2 bytes) of an AAC track; an MP4's `esds` carries it. */
export function aacConfig(rateIndex: number, channels: number, objectType = AAC_LC): Uint8Array {
  return new Uint8Array([(objectType << 3) | (rateIndex >> 1), ((rateIndex & 1) << 7) | (channels << 3)]);
}

/** The 7-byte ADTS header (MPEG-4, no CRC) of a frame of `length` bytes, header included, for a track of `config`. */
export function adtsHeader(config: Uint8Array, length: number): Uint8Array {
  const profile = (config[0]! >> 3) - 1;
  const rateIndex = ((config[0]! & 7) << 1) | (config[1]! >> 7);
  const channels = (config[1]! >> 3) & 0xf;
  return new Uint8Array([
    0xff,
    0xf1,
    (profile << 6) | (rateIndex << 2) | (channels >> 2),
    ((channels & 3) << 6) | (length >> 11),
    (length >> 3) & 0xff,
    ((length & 7) << 5) | 0x1f, // buffer fullness 0x7ff: variable bitrate
    0xfc,
  ]);
}

/**
 * Reads ADTS pushed in pieces of any size (a frame may be cut between two pushes) and hands back
 * the raw frames; throws on bytes that are not ADTS. Keeps only the frames' sizes, in a typed
 * array that doubles as it fills.
 */
export class AdtsReader {
  private pending = new Uint8Array(0);
  private read = 0;
  private header: { profile: number; rateIndex: number; channels: number } | null = null;
  private sizes = new Uint16Array(4096);
  private count = 0;

  /** The raw frames complete in what was pushed so far and not yet returned, one after another. */
  push(bytes: Uint8Array): Uint8Array {
    const data = this.pending.length > 0 ? concat(this.pending, bytes) : bytes;
    const out = new Uint8Array(data.length);
    let written = 0;
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
      out.set(data.subarray(at + headerBytes, at + length), written);
      written += length - headerBytes;
      this.keepSize(length - headerBytes);
      at += length;
    }
    this.read += at;
    this.pending = data.slice(at);
    return out.subarray(0, written);
  }

  /** The track, once every byte is pushed. */
  track(): AacTrack {
    if (this.pending.length > 0) throw new Error(`A truncated ADTS frame at byte ${this.read}`);
    if (!this.header) throw new Error('No AAC frames');
    const { profile, rateIndex, channels } = this.header;
    const config = aacConfig(rateIndex, channels, profile + 1);
    return { config, sampleRate: AAC_SAMPLE_RATES[rateIndex] ?? 0, channels, frameSizes: this.sizes.subarray(0, this.count) };
  }

  private keepSize(size: number) {
    if (this.count === this.sizes.length) {
      const grown = new Uint16Array(this.sizes.length * 2);
      grown.set(this.sizes);
      this.sizes = grown;
    }
    this.sizes[this.count++] = size;
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}
