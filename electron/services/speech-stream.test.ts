import { describe, expect, it } from 'vitest';
import { ApiError } from '../contract';
import type { Pcm } from '../audio/pcm';
import { parseWav } from '../audio/wav';
import type { ResolvedVoice } from '../engines/registry';
import { SENTENCE_PAUSE_MS } from '../jobs/chunker';
import { openSpeechStream } from './speech-stream';

const RATE = 16000;

/** A voice that says each chunk as 10 ms of tone per character, and records what it was asked. */
function fakeVoice(fail?: (call: number) => boolean) {
  const calls: { text: string; signal: AbortSignal | undefined }[] = [];
  const voice = {
    adapter: { id: 'fake' },
    voice: { id: 'fake:one', name: 'One', language: 'en', sampleRate: RATE },
    localName: 'one',
    async synthesize(request: { text: string }, context: { signal?: AbortSignal }): Promise<Pcm> {
      calls.push({ text: request.text, signal: context.signal });
      if (fail?.(calls.length)) throw new ApiError('engine_error', `chunk ${calls.length} failed`);
      const samples = new Int16Array(request.text.length * (RATE / 100)).map((_, i) => Math.round(8000 * Math.sin(i / 5)));
      return { sampleRate: RATE, samples };
    },
  } as unknown as ResolvedVoice;
  return { voice, calls };
}

const text = 'One sentence first. '.repeat(1) + 'Then a longer run of words that follows it. '.repeat(30);
const prosody = { rate: 1, pitch: 1, volume: 1 };

async function collect(audio: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const pieces: Uint8Array[] = [];
  for await (const piece of audio) pieces.push(piece);
  return Buffer.concat(pieces);
}

describe('openSpeechStream', () => {
  it('synthesizes the first sentence alone before it resolves, then the rest as it is read', async () => {
    const { voice, calls } = fakeVoice();
    const stream = await openSpeechStream({ voice, text, prosody, format: 'pcm' });
    expect(calls.map((c) => c.text)).toEqual(['One sentence first.']);
    expect(stream.contentType).toBe('audio/pcm');
    const bytes = await collect(stream.audio);
    expect(calls.length).toBeGreaterThan(2);
    // every chunk's tone plus a pause after each but the last, resampled to 24 kHz
    const characters = calls.reduce((n, c) => n + c.text.length, 0);
    const seconds = characters / 100 + ((calls.length - 1) * SENTENCE_PAUSE_MS) / 1000;
    expect(stream.durationS).toBeCloseTo(seconds, 3);
    expect(bytes.length / 2 / 24000).toBeCloseTo(seconds, 3);
  });

  it('gives a WAV whose pieces join into one file', async () => {
    const { voice } = fakeVoice();
    const stream = await openSpeechStream({ voice, text, prosody, format: 'wav' });
    const wav = await collect(stream.audio);
    const info = parseWav(wav);
    expect(info.sampleRate).toBe(RATE);
    expect((wav.length - info.dataOffset) / 2 / RATE).toBeCloseTo(stream.durationS, 3);
  });

  it('throws a failure of the first sentence before any audio', async () => {
    const { voice } = fakeVoice((call) => call === 1);
    await expect(openSpeechStream({ voice, text, prosody, format: 'mp3' })).rejects.toMatchObject({ code: 'engine_error' });
  });

  it('ends the audio with a later failure', async () => {
    const { voice } = fakeVoice((call) => call === 3);
    const stream = await openSpeechStream({ voice, text, prosody, format: 'mp3' });
    await expect(collect(stream.audio)).rejects.toMatchObject({ code: 'engine_error', message: 'chunk 3 failed' });
  });

  it('stops synthesizing when its signal aborts, and aborts the sentence under way', async () => {
    const { voice, calls } = fakeVoice();
    const gone = new AbortController();
    const stream = await openSpeechStream({ voice, text, prosody, format: 'wav', signal: gone.signal });
    const reader = stream.audio[Symbol.asyncIterator]();
    await reader.next();
    gone.abort(new Error('client gone'));
    await expect(collect({ [Symbol.asyncIterator]: () => reader })).rejects.toThrow('client gone');
    expect(calls.length).toBeLessThanOrEqual(2);
    expect(calls.every((c) => c.signal!.aborted)).toBe(true);
  });

  it('releases everything when closed unread, or broken off', async () => {
    const { voice, calls } = fakeVoice();
    const unread = await openSpeechStream({ voice, text, prosody, format: 'flac' });
    await unread.close();
    await unread.close();
    expect(calls[0]!.signal!.aborted).toBe(true);
    const broken = await openSpeechStream({ voice, text, prosody, format: 'aac' });
    for await (const piece of broken.audio) {
      expect(piece.length).toBeGreaterThan(0);
      break;
    }
    expect(calls.at(-1)!.signal!.aborted).toBe(true);
  });

  it('refuses an option no encoder takes as the caller’s mistake', async () => {
    const { voice } = fakeVoice();
    await expect(openSpeechStream({ voice, text, prosody, format: 'mp3', bitrateKbps: 100 })).rejects.toMatchObject({
      code: 'invalid_request',
    });
  });
});
