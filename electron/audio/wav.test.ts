import { describe, expect, it } from 'vitest';
import { decodeWav, durationSeconds, encodeWav, parseWav, wavHeader } from './wav';
import { applyGain } from './gain';

describe('WAV', () => {
  it('round-trips samples with a correct header', () => {
    const samples = Int16Array.from({ length: 22050 }, (_, i) => Math.round(10_000 * Math.sin(i / 10)));
    const file = encodeWav({ sampleRate: 22050, samples });
    expect(file.length).toBe(44 + 44100);
    expect(parseWav(file)).toEqual({ format: 1, channels: 1, sampleRate: 22050, bitsPerSample: 16, dataOffset: 44, dataBytes: 44100 });
    expect(file.readUInt32LE(28)).toBe(44100); // byte rate
    expect(decodeWav(file).samples).toEqual(samples);
    expect(durationSeconds(22050, 44100)).toBe(1);
  });

  it('reads to the end of the file when a streamed header left the size at 0 or 0xFFFFFFFF', () => {
    const data = Buffer.alloc(1000, 1);
    for (const size of [0, 0xffffffff]) {
      const header = wavHeader(16000, 0);
      header.writeUInt32LE(size, 40);
      expect(parseWav(Buffer.concat([header, data])).dataBytes).toBe(1000);
    }
  });

  it('skips chunks it does not know (LIST) and rejects what is not WAV', () => {
    const list = Buffer.concat([Buffer.from('LIST'), Buffer.from([4, 0, 0, 0]), Buffer.from('INFO')]);
    const plain = encodeWav({ sampleRate: 8000, samples: new Int16Array([1, 2, 3]) });
    const withList = Buffer.concat([plain.subarray(0, 36), list, plain.subarray(36)]);
    expect(decodeWav(withList).samples).toEqual(new Int16Array([1, 2, 3]));
    expect(() => parseWav(Buffer.from('not a wav file at all'))).toThrow('RIFF');
  });

  it('caps the sizes of a header for more than 4 GiB', () => {
    expect(wavHeader(22050, 5 * 2 ** 30).readUInt32LE(40)).toBe(0xffffffff);
  });

  it('applies gain with clipping', () => {
    const samples = new Int16Array([1000, -1000, 30000, -30000]);
    applyGain(samples, 2);
    expect([...samples]).toEqual([2000, -2000, 32767, -32768]);
  });
});
