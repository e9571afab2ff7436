/**
 * Speech streamed as it is made: text cut into sentences (the job chunker), each synthesized and
 * pushed through a streaming encoder, so the first bytes leave after the first sentence rather
 * than after the whole text. Transport-agnostic: the gateway's routes turn it into a chunked
 * answer or Server-Sent Events.
 */
import { ApiError } from '../contract';
import { createEncoder, EncoderOptionError, type StreamingEncoder } from '../audio/encode/encoder';
import { resampleWhole } from '../audio/encode/resampler';
import type { AudioFormat } from '../audio/encode/formats';
import type { Pcm } from '../audio/pcm';
import type { Lane } from '../engines/lanes';
import type { Prosody, ResolvedVoice } from '../engines/registry';
import { chunkText, DEFAULT_CHUNK_CHARS, type Chunk } from '../jobs/chunker';
import { unchanged, type Rewrite } from '../lexicon/rewrite';
import type { PlannedSegment } from '../ssml/plan';
import type { SpokenFor } from '../ssml/synthesize';

/** The first chunk is one sentence (a bound of 1 lets exactly one in); the rest are packed as job chunks. */
const FIRST_CHUNK_CHARS = 1;

export interface SpeechStreamRequest {
  voice: ResolvedVoice;
  text: string;
  prosody: Prosody;
  format: AudioFormat;
  /** Lossy formats; the format's default when absent. */
  bitrateKbps?: number;
  /** Aborting stops synthesis and releases the encoder (the client went away). */
  signal?: AbortSignal;
  /** Default interactive: a listener is waiting. */
  lane?: Lane;
  /** Each sentence as the engine reads it (the pronunciation lexicon); cut into sentences as written first. */
  spoken?: Rewrite;
  /** SSML: segments spoken instead of `text`, each with its voice, prosody and lexicon (`spokenFor`) and the pause after it. */
  plan?: { segments: readonly PlannedSegment[]; spokenFor: SpokenFor };
}

/** A piece of the stream: its text as written, the voice and prosody it is spoken with, the silence after it. */
type StreamChunk = Chunk & { voice: ResolvedVoice; prosody: Prosody; spoken: Rewrite };

/** The request as chunks: the text's sentences, or each SSML segment's, the first chunk one sentence long. */
function streamChunks(request: SpeechStreamRequest): StreamChunk[] {
  const { voice, prosody, plan } = request;
  const spoken = request.spoken ?? unchanged;
  if (!plan) {
    return chunkText(request.text, voice.voice.language, DEFAULT_CHUNK_CHARS, FIRST_CHUNK_CHARS).map((chunk) => ({
      ...chunk,
      voice,
      prosody,
      spoken,
    }));
  }
  const out: StreamChunk[] = [];
  plan.segments.forEach((segment, s) => {
    const first = out.length === 0 ? FIRST_CHUNK_CHARS : DEFAULT_CHUNK_CHARS;
    const chunks = chunkText(segment.text, segment.voice.voice.language, DEFAULT_CHUNK_CHARS, first);
    const own = { voice: segment.voice, prosody: segment.prosody, spoken: plan.spokenFor(segment.voice) };
    chunks.forEach((chunk, i) => {
      const pauseMs = i === chunks.length - 1 && s < plan.segments.length - 1 ? segment.pauseAfterMs : chunk.pauseMs;
      out.push({ ...chunk, pauseMs, ...own });
    });
  });
  return out;
}

export interface SpeechStream {
  readonly engine: string;
  readonly voice: string;
  readonly contentType: string;
  readonly extension: string;
  /** Seconds of audio encoded so far; the whole length once `audio` has ended. */
  readonly durationS: number;
  /**
   * The encoded audio, in pieces as sentences are synthesized (one sentence is synthesized ahead).
   * Iterate it once; breaking off, or an error, stops synthesis and releases the encoder.
   */
  readonly audio: AsyncIterable<Uint8Array>;
  /** Releases everything without iterating (an answer abandoned before it started). Safe to repeat. */
  close(): Promise<void>;
}

/**
 * Synthesizes the first sentence before it resolves, so that a failing engine or voice is an
 * error the caller can still answer with a status; later failures end `audio` with the error.
 */
export async function openSpeechStream(request: SpeechStreamRequest): Promise<SpeechStream> {
  const { voice, lane = 'interactive' } = request;
  const stop = new AbortController();
  const abort = () => stop.abort(request.signal?.reason);
  if (request.signal?.aborted) throw request.signal.reason;
  request.signal?.addEventListener('abort', abort, { once: true });

  const chunks = streamChunks(request);
  const synthesize = (chunk: StreamChunk) =>
    chunk.voice.synthesize({ text: chunk.spoken(chunk.text).text, ...chunk.prosody }, { lane, signal: stop.signal });
  let encoder: StreamingEncoder | undefined;
  const close = async () => {
    request.signal?.removeEventListener('abort', abort);
    if (!stop.signal.aborted) stop.abort(new Error('The speech stream was closed'));
    await encoder?.close();
  };

  let first: Pcm | undefined;
  try {
    first = chunks.length > 0 ? await synthesize(chunks[0]!) : undefined;
    encoder = await openEncoder(request, first?.sampleRate ?? voice.voice.sampleRate);
  } catch (error) {
    await close();
    throw error;
  }
  const encoding = encoder;
  const inputRate = first?.sampleRate ?? voice.voice.sampleRate;
  let samples = 0;

  async function* audio(): AsyncGenerator<Uint8Array> {
    let finished = false;
    let next: Promise<Pcm> | undefined;
    try {
      for (const [i, chunk] of chunks.entries()) {
        stop.signal.throwIfAborted();
        const pcm = i === 0 ? first! : await next!;
        // one sentence ahead: it is synthesized while this one is encoded and sent
        const ahead = chunks[i + 1];
        const lookAhead = () => {
          next = ahead && synthesize(ahead);
          next?.catch(() => undefined); // awaited, and its failure thrown, on the next turn
        };
        // ...except the second, started once the first sentence's bytes are out: a neural model's
        // threads fill the cores, and the first byte would wait behind them
        if (i > 0) lookAhead();
        // another voice (SSML) at another rate joins at the first sentence's
        const atRate = await resampleWhole(pcm.samples, pcm.sampleRate, inputRate);
        yield* nonEmpty(await encoding.push(atRate));
        if (i === 0) lookAhead();
        samples += atRate.length;
        if (ahead) {
          const pause = new Int16Array(Math.round((chunk.pauseMs / 1000) * inputRate));
          yield* nonEmpty(await encoding.push(pause));
          samples += pause.length;
        }
      }
      const tail = await encoding.finish();
      finished = true;
      yield* nonEmpty(tail);
    } finally {
      if (finished) request.signal?.removeEventListener('abort', abort);
      else await close();
    }
  }

  return {
    engine: voice.adapter.id,
    voice: voice.voice.id,
    contentType: encoding.contentType,
    extension: encoding.extension,
    get durationS() {
      return samples / inputRate;
    },
    audio: audio(),
    close,
  };
}

function* nonEmpty(bytes: Uint8Array): Generator<Uint8Array> {
  if (bytes.length > 0) yield bytes;
}

/** An option no encoder takes (a bitrate out of range) is the caller's mistake: 400. */
async function openEncoder(request: SpeechStreamRequest, sampleRate: number): Promise<StreamingEncoder> {
  try {
    return await createEncoder(request.format, {
      sampleRate,
      ...(request.bitrateKbps === undefined ? {} : { bitrateKbps: request.bitrateKbps }),
    });
  } catch (error) {
    if (error instanceof EncoderOptionError) throw new ApiError('invalid_request', error.message);
    throw error;
  }
}
