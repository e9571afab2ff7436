/**
 * The audio formats Orator writes, what each needs from the encoder (rates, bitrates) and how
 * HTTP names it. Figures and the reasons for each library: docs/formats.md.
 */

/** `ogg` is Opus in Ogg; `m4a` is AAC in fragmented MP4; `aac` is AAC in ADTS (OpenAI's `aac`). */
export const AUDIO_FORMATS = ['wav', 'mp3', 'ogg', 'flac', 'm4a', 'aac', 'pcm'] as const;
export type AudioFormat = (typeof AUDIO_FORMATS)[number];

export interface BitrateRange {
  defaultKbps: number;
  minKbps: number;
  maxKbps: number;
  /** When the codec takes only some values in the range. */
  choices?: readonly number[];
}

export interface FormatInfo {
  contentType: string;
  extension: string;
  /** Sample rates the codec takes; other rates are resampled up to the nearest one. Absent: any rate. */
  sampleRates?: readonly number[];
  /** Lossy formats only. */
  bitrate?: BitrateRange;
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

/** LAME's constant bitrates; below 32 kHz (MPEG-2) it caps them at 160. */
const MP3_KBPS = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320];
const AAC_BITRATE: BitrateRange = { defaultKbps: 64, minKbps: 16, maxKbps: 256 };

export const FORMATS: Record<AudioFormat, FormatInfo> = {
  wav: { contentType: 'audio/wav', extension: 'wav' },
  mp3: {
    contentType: 'audio/mpeg',
    extension: 'mp3',
    sampleRates: MP3_RATES,
    bitrate: { defaultKbps: 128, minKbps: 8, maxKbps: 320, choices: MP3_KBPS },
  },
  ogg: { contentType: 'audio/ogg', extension: 'ogg', sampleRates: OPUS_RATES, bitrate: { defaultKbps: 48, minKbps: 6, maxKbps: 256 } },
  flac: { contentType: 'audio/flac', extension: 'flac', sampleRates: FLAC_RATES },
  m4a: { contentType: 'audio/mp4', extension: 'm4a', sampleRates: AAC_RATES, bitrate: AAC_BITRATE },
  aac: { contentType: 'audio/aac', extension: 'aac', sampleRates: AAC_RATES, bitrate: AAC_BITRATE },
  pcm: { contentType: 'audio/pcm', extension: 'pcm', sampleRates: [PCM_SAMPLE_RATE] },
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
