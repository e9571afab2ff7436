/**
 * The audio formats Orator writes and the sample rates each codec takes; their names, media types
 * and bitrates are the contract's (contract/formats.ts). Figures and the reasons for each library:
 * docs/formats.md.
 */
import { AUDIO_FORMATS, AUDIO_MEDIA, type AudioFormat, type AudioMedia } from '../../contract/formats';

export { AUDIO_FORMATS, type AudioFormat };

export interface FormatInfo extends AudioMedia {
  /** Sample rates the codec takes; other rates are resampled up to the nearest one. Absent: any rate. */
  sampleRates?: readonly number[];
}

/** MPEG-1, 2 and 2.5 layer III rates. */
const MP3_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000];
/** The rates libopus encodes; decoders always play Opus at 48 kHz. */
const OPUS_RATES = [8000, 12000, 16000, 24000, 48000];
/** AAC's sampling-frequency table, in the rates an engine might give. */
const AAC_RATES = [8000, 11025, 12000, 16000, 22050, 24000, 32000, 44100, 48000, 64000, 88200, 96000];
/** The rates Mediabunny's libFLAC encoder takes: those a FLAC frame header can name. */
const FLAC_RATES = [8000, 16000, 22050, 24000, 32000, 44100, 48000, 88200, 96000, 176400, 192000];
/** OpenAI's `pcm`: raw 16-bit little-endian mono at 24 kHz, whatever the voice's rate. */
export const PCM_SAMPLE_RATE = 24000;

/** How HTTP names each format and its bitrates (the contract), with the rates each codec takes. */
export const FORMATS: Record<AudioFormat, FormatInfo> = {
  wav: AUDIO_MEDIA.wav,
  mp3: { ...AUDIO_MEDIA.mp3, sampleRates: MP3_RATES },
  ogg: { ...AUDIO_MEDIA.ogg, sampleRates: OPUS_RATES },
  flac: { ...AUDIO_MEDIA.flac, sampleRates: FLAC_RATES },
  m4a: { ...AUDIO_MEDIA.m4a, sampleRates: AAC_RATES },
  aac: { ...AUDIO_MEDIA.aac, sampleRates: AAC_RATES },
  pcm: { ...AUDIO_MEDIA.pcm, sampleRates: [PCM_SAMPLE_RATE] },
};

export function isAudioFormat(name: string): name is AudioFormat {
  return (AUDIO_FORMATS as readonly string[]).includes(name);
}

/** The rate a format encodes audio of `inputRate` at: the input's own when the codec takes it, else the next one up. */
export function encodedSampleRate(format: AudioFormat, inputRate: number): number {
  const rates = FORMATS[format].sampleRates;
  if (!rates) return inputRate;
  return rates.find((rate) => rate >= inputRate) ?? rates[rates.length - 1]!;
}
