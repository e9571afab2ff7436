/** Flite's built-in voices and command line, shared by the embedded (WASI) and the system flite. */
import type { QualityTier, Voice } from '../../contract';
import type { SynthesisRequest } from '../engine';

interface FliteVoice {
  name: string;
  language: string;
  gender: 'male' | 'female';
  sampleRate: number;
  quality: QualityTier;
  /** The voice's mean pitch in Hz: Orator's pitch multiplier scales it. */
  f0: number;
}

/** kal/kal16 are diphone voices, awb/rms/slt clustergen (statistical parametric); awb_time only speaks clock times. */
const KNOWN: Record<string, FliteVoice> = {
  slt: { name: 'SLT (US English, female)', language: 'en-US', gender: 'female', sampleRate: 16000, quality: 'medium', f0: 170 },
  rms: { name: 'RMS (US English, male)', language: 'en-US', gender: 'male', sampleRate: 16000, quality: 'medium', f0: 105 },
  awb: { name: 'AWB (Scottish English, male)', language: 'en-GB-scotland', gender: 'male', sampleRate: 16000, quality: 'medium', f0: 105 },
  kal16: { name: 'Kal 16 kHz (US English, male)', language: 'en-US', gender: 'male', sampleRate: 16000, quality: 'low', f0: 105 },
  kal: { name: 'Kal 8 kHz (US English, male)', language: 'en-US', gender: 'male', sampleRate: 8000, quality: 'low', f0: 105 },
};

/** The default: the fastest voice that still sounds clear (kal16 runs ≈20× faster than slt). */
export const FLITE_DEFAULT_VOICE = 'kal16';

/** The voices among `names` (as `flite -lv` lists them) that Orator knows how to describe, best first. */
export function fliteVoices(engineId: string, names: string[]): Voice[] {
  return Object.entries(KNOWN)
    .filter(([local]) => names.includes(local))
    .map(([local, v]) => ({
      id: `${engineId}:${local}`,
      name: v.name,
      language: v.language,
      gender: v.gender,
      sampleRate: v.sampleRate,
      quality: v.quality,
    }));
}

/** Parses `flite -lv`: "Voices available: kal awb_time kal16 awb rms slt". */
export function parseFliteVoiceList(output: string): string[] {
  const listed = /Voices available:(.*)/.exec(output)?.[1];
  if (listed === undefined) throw new Error(`unexpected voice list: ${output.trim().slice(0, 200)}`);
  return listed.trim().split(/\s+/).filter(Boolean);
}

/** Arguments after the program name; the same for the WASI build and the system program. */
export function fliteArgs(request: SynthesisRequest, textFile: string, wavFile: string): string[] {
  const voice = KNOWN[request.voice];
  if (!voice) throw new Error(`Flite has no voice "${request.voice}"`);
  const args = ['-voice', request.voice];
  if (request.rate !== 1) args.push('--setf', `duration_stretch=${round(1 / request.rate)}`);
  if (request.pitch !== 1) args.push('--setf', `int_f0_target_mean=${round(voice.f0 * request.pitch)}`);
  return [...args, '-f', textFile, '-o', wavFile];
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}
