/** Test support: checks that bytes are real speech audio, not just a header. */
import { expect } from 'vitest';
import { decodeWav, parseWav } from '../audio/wav';

export interface SpeechCheck {
  sampleRate?: number;
  minSeconds?: number;
  maxSeconds?: number;
}

/** Asserts a well-formed 16-bit mono PCM WAV with audible samples; returns its duration in seconds. */
export function expectSpeech(file: Buffer, check: SpeechCheck = {}): number {
  const info = parseWav(file);
  expect(file.toString('ascii', 0, 4)).toBe('RIFF');
  expect(file.readUInt32LE(4)).toBe(file.length - 8);
  expect(info.dataOffset + info.dataBytes).toBe(file.length);
  expect(file.readUInt32LE(info.dataOffset - 4)).toBe(info.dataBytes);
  expect([info.format, info.channels, info.bitsPerSample]).toEqual([1, 1, 16]);
  if (check.sampleRate) expect(info.sampleRate).toBe(check.sampleRate);
  const { samples, sampleRate } = decodeWav(file);
  let energy = 0;
  let peak = 0;
  for (const s of samples) {
    energy += s * s;
    peak = Math.max(peak, Math.abs(s));
  }
  const rms = Math.sqrt(energy / Math.max(1, samples.length));
  expect(peak).toBeGreaterThan(1000);
  expect(rms).toBeGreaterThan(100);
  const seconds = samples.length / sampleRate;
  if (check.minSeconds !== undefined) expect(seconds).toBeGreaterThanOrEqual(check.minSeconds);
  if (check.maxSeconds !== undefined) expect(seconds).toBeLessThanOrEqual(check.maxSeconds);
  return seconds;
}
