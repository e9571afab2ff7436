import type { FastifyReply } from 'fastify';
import { Readable } from 'node:stream';
import { ApiError, AUDIO_HEADERS } from '../../contract';
import type { SpeechStream } from '../../services/speech-stream';

/** The headers of every streamed speech answer: who speaks, and no buffering on the way. */
export function speechHeaders(reply: FastifyReply, stream: SpeechStream): FastifyReply {
  return reply
    .header(AUDIO_HEADERS.engine, stream.engine)
    .header(AUDIO_HEADERS.voice, stream.voice)
    .header('cache-control', 'no-store')
    .header('x-accel-buffering', 'no');
}

/** Sends the audio as it is encoded (chunked transfer). */
export function sendSpeechAudio(reply: FastifyReply, stream: SpeechStream, gone: AbortSignal): FastifyReply {
  return speechHeaders(reply, stream)
    .type(stream.contentType)
    .send(Readable.from(logged(stream.audio, gone), { objectMode: false }));
}

/**
 * Audio that fails once its answer has started ends the answer early (the status is sent); a
 * failure that is no engine's nor the client's leaving is a bug, whose stack goes to the log.
 */
export async function* logged(audio: AsyncIterable<Uint8Array>, gone: AbortSignal): AsyncGenerator<Uint8Array> {
  try {
    yield* audio;
  } catch (error) {
    if (!gone.aborted && !(error instanceof ApiError)) console.error('Orator: a speech stream failed:', error);
    throw error;
  }
}
