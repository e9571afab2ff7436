import { AUDIO_HEADERS, inlineTimingsOf, type JobAccepted, type JobTimings } from '../contract';
import { GatewayError } from './errors';

export interface InlineAudio {
  blob: Blob;
  engine: string;
  voice: string;
  durationS: number;
  /** Each sentence's place in the audio and the text (read-along); null without them. */
  timings: JobTimings | null;
  /** Integrated loudness (BS.1770) as the gateway measured it; null for silence. */
  loudnessLufs: number | null;
}

export type SynthesisResult = { kind: 'audio'; audio: InlineAudio } | { kind: 'job'; accepted: JobAccepted };

/** Inline audio and what its headers say of it; `text`: the text sent, which the timings header points into. */
export async function inlineAudio(response: Response, text: string | undefined): Promise<InlineAudio> {
  if (!response.headers.get('content-type')?.startsWith('audio/')) throw new GatewayError('The gateway did not answer with audio.');
  const header = Number(response.headers.get(AUDIO_HEADERS.duration));
  const durationS = Number.isFinite(header) ? header : 0;
  const loudness = response.headers.get(AUDIO_HEADERS.loudness);
  return {
    blob: await response.blob(),
    engine: response.headers.get(AUDIO_HEADERS.engine) ?? '',
    voice: response.headers.get(AUDIO_HEADERS.voice) ?? '',
    durationS,
    loudnessLufs: loudness !== null && Number.isFinite(Number(loudness)) ? Number(loudness) : null,
    timings: text === undefined ? null : inlineTimingsOf(response.headers.get(AUDIO_HEADERS.timings), text, durationS),
  };
}
