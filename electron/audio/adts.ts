/** AAC in ADTS (what the `aac` encoder writes) taken apart into raw frames for an MP4 container. */

export interface AacStream {
  /** The AudioSpecificConfig of ISO 14496-3 (2 bytes) that an MP4 `esds` carries. */
  config: Uint8Array;
  sampleRate: number;
  channels: number;
  /** Raw AAC frames of 1024 samples each, without their ADTS headers. */
  frames: Uint8Array[];
}

const RATES = [96000, 88200, 64000, 48000, 44100, 32000, 24000, 22050, 16000, 12000, 11025, 8000, 7350];

/** Splits an ADTS stream into its frames; throws on bytes that are not ADTS. */
export function parseAdts(bytes: Uint8Array): AacStream {
  const frames: Uint8Array[] = [];
  let profile = -1;
  let rateIndex = -1;
  let channels = -1;
  for (let at = 0; at < bytes.length;) {
    if (at + 7 > bytes.length || bytes[at] !== 0xff || (bytes[at + 1]! & 0xf6) !== 0xf0) {
      throw new Error(`No ADTS frame at byte ${at}`);
    }
    const protectionAbsent = bytes[at + 1]! & 1;
    profile = bytes[at + 2]! >> 6;
    rateIndex = (bytes[at + 2]! >> 2) & 0xf;
    channels = ((bytes[at + 2]! & 1) << 2) | (bytes[at + 3]! >> 6);
    const length = ((bytes[at + 3]! & 3) << 11) | (bytes[at + 4]! << 3) | (bytes[at + 5]! >> 5);
    const header = protectionAbsent ? 7 : 9;
    if (length < header || at + length > bytes.length) throw new Error(`A truncated ADTS frame at byte ${at}`);
    frames.push(bytes.subarray(at + header, at + length));
    at += length;
  }
  if (frames.length === 0) throw new Error('No AAC frames');
  const objectType = profile + 1;
  const config = new Uint8Array([(objectType << 3) | (rateIndex >> 1), ((rateIndex & 1) << 7) | (channels << 3)]);
  return { config, sampleRate: RATES[rateIndex] ?? 0, channels, frames };
}
