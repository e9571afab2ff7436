/**
 * libopus (@evan/opus: prebuilt N-API where there is one, WASM elsewhere) cutting mono audio into
 * 20 ms Opus packets, timed so the Ogg stream ends exactly where the input did.
 */
import { Encoder } from '@evan/opus';
import { EncodedPacket } from 'mediabunny';

type OpusRate = 8000 | 12000 | 16000 | 24000 | 48000;

const FRAMES_PER_SECOND = 50; // 20 ms: libopus's best quality per bit for speech and music
const OPUS_GET_LOOKAHEAD = 4027; // @evan/opus types its getter under a misspelt name
/** Ogg Opus counts granule positions and pre-skip in 48 kHz samples, whatever the encoder's rate. */
export const OGG_OPUS_RATE = 48000;

export class OpusPackets {
  private readonly encoder: Encoder;
  private readonly frame: Int16Array;
  private readonly lookahead: number;
  private filled = 0;
  private packets = 0;
  /** Input samples plus the encoder's lookahead: what the stream must play, pre-skip included. */
  private playable: number;

  constructor(
    private readonly sampleRate: number,
    bitrate: number,
  ) {
    this.encoder = new Encoder({ channels: 1, sample_rate: sampleRate as OpusRate, application: 'audio' });
    this.encoder.bitrate = bitrate;
    // Text to speech is speech: the hint keeps SILK (hybrid mode) for it at every bitrate, as
    // libopus's own speech/music analysis would, without leaving the choice to that guess
    this.encoder.signal = 'voice';
    this.frame = new Int16Array(sampleRate / FRAMES_PER_SECOND);
    this.lookahead = this.encoder.ctl(OPUS_GET_LOOKAHEAD);
    this.playable = this.lookahead;
  }

  push(samples: Int16Array): EncodedPacket[] {
    this.playable += samples.length;
    return this.append(samples);
  }

  /** The decoder drops the lookahead at the start (pre-skip), so the end needs as much again. */
  finish(): EncodedPacket[] {
    const packets = this.append(new Int16Array(this.lookahead));
    if (this.filled > 0) {
      this.frame.fill(0, this.filled);
      packets.push(this.encodeFrame());
    }
    return packets;
  }

  /** RFC 7845 identification header: mono, pre-skip in 48 kHz samples, channel mapping family 0. */
  opusHead(): Uint8Array {
    const head = new Uint8Array(19);
    const view = new DataView(head.buffer);
    head.set(new TextEncoder().encode('OpusHead'));
    head[8] = 1; // version
    head[9] = 1; // channels
    view.setUint16(10, (this.lookahead * OGG_OPUS_RATE) / this.sampleRate, true);
    view.setUint32(12, this.sampleRate, true);
    return head;
  }

  private append(samples: Int16Array): EncodedPacket[] {
    const packets: EncodedPacket[] = [];
    let at = 0;
    while (at < samples.length) {
      const take = Math.min(samples.length - at, this.frame.length - this.filled);
      this.frame.set(samples.subarray(at, at + take), this.filled);
      this.filled += take;
      at += take;
      if (this.filled === this.frame.length) packets.push(this.encodeFrame());
    }
    return packets;
  }

  private encodeFrame(): EncodedPacket {
    const start = this.packets * this.frame.length;
    // A last packet shorter than a frame tells the muxer to trim its padding (granule position)
    const duration = Math.min(this.frame.length, this.playable - start);
    const data = this.encoder.encode(this.frame).slice(); // the native binding reuses its buffer
    this.packets++;
    this.filled = 0;
    return new EncodedPacket(data, 'key', start / this.sampleRate, duration / this.sampleRate);
  }
}
