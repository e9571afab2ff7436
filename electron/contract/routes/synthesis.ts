import { AUDIO_MEDIA, OUTPUT_FORMATS } from '../formats';
import { TTS_ROOT } from '../paths';
import { JobAccepted, PreviewBody, SynthesizeBody } from '../synthesis';
import { mediaAnswer, routeGroup } from './route';

/** A file of audio, in any of the API's formats. */
export const audioAnswer = (description: string) =>
  mediaAnswer(
    description,
    OUTPUT_FORMATS.map((format) => AUDIO_MEDIA[format].contentType),
  );

const inline = audioAnswer('The audio, inline, in the requested format (default: 16-bit PCM mono WAV); streamed with `stream`');
/** Both speak: the text's own errors, and the engine's (failed, unavailable, timed out). */
const speaking = [422, 502, 503, 504] as const;

export const synthesisApi = routeGroup('synthesis', {
  synthesize: {
    method: 'POST',
    path: `${TTS_ROOT}/synthesize`,
    summary: 'Speak text: inline audio (200) up to the inline threshold, else a queued job (202)',
    body: SynthesizeBody,
    responses: { 200: inline, 202: JobAccepted },
    errors: [...speaking, 429, 507],
  },
  preview: {
    method: 'POST',
    path: `${TTS_ROOT}/preview`,
    summary: 'A short inline sample of a voice (its sample sentence unless `text` is given)',
    body: PreviewBody,
    responses: { 200: inline },
    errors: speaking,
  },
});
