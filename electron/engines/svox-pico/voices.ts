/** SVOX Pico's six voices, its language files and prosody markup, shared by the embedded build and pico2wave. */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Voice } from '../../contract';
import type { SynthesisRequest } from '../engine';

/** Pico's text-analysis (ta) and signal-generation (sg) files of each voice: all female, 16 kHz. */
export const PICO_VOICES: Record<string, { ta: string; sg: string; name: string }> = {
  'en-US': { ta: 'en-US_ta.bin', sg: 'en-US_lh0_sg.bin', name: 'US English' },
  'en-GB': { ta: 'en-GB_ta.bin', sg: 'en-GB_kh0_sg.bin', name: 'British English' },
  'de-DE': { ta: 'de-DE_ta.bin', sg: 'de-DE_gl0_sg.bin', name: 'German' },
  'es-ES': { ta: 'es-ES_ta.bin', sg: 'es-ES_zl0_sg.bin', name: 'Spanish' },
  'fr-FR': { ta: 'fr-FR_ta.bin', sg: 'fr-FR_nk0_sg.bin', name: 'French' },
  'it-IT': { ta: 'it-IT_ta.bin', sg: 'it-IT_cm0_sg.bin', name: 'Italian' },
};
export const PICO_SAMPLE_RATE = 16000;
export const PICO_DEFAULT_VOICE = 'en-US';

/**
 * Where the language files are: ORATOR_PICO_LANG_DIR, else Debian's libttspico-data location
 * (the files are non-free, so no npm package carries them).
 */
export function picoLangDirs(env = process.env): string[] {
  return [env.ORATOR_PICO_LANG_DIR, '/usr/share/pico/lang', '/usr/local/share/pico/lang'].filter((d): d is string => Boolean(d));
}

export const PICO_INSTALL_HINT =
  'Install Debian non-free package libttspico-data (apt install libttspico-data after adding "non-free" to the apt sources), or set ORATOR_PICO_LANG_DIR to a folder with the *_ta.bin and *_sg.bin files.';

/** The first folder that holds both files of `voice`, or null. */
export function findPicoFiles(voice: string, dirs = picoLangDirs()): { ta: string; sg: string } | null {
  const files = PICO_VOICES[voice];
  if (!files) return null;
  const dir = dirs.find((d) => existsSync(path.join(d, files.ta)) && existsSync(path.join(d, files.sg)));
  return dir ? { ta: path.join(dir, files.ta), sg: path.join(dir, files.sg) } : null;
}

/** The voices whose files `hasFiles` finds; an error naming what is missing when there are none. */
export function picoVoices(engineId: string, hasFiles: (voice: string) => boolean): Voice[] {
  const voices = Object.entries(PICO_VOICES)
    .filter(([local]) => hasFiles(local))
    .map(([local, v]) => ({
      id: `${engineId}:${local}`,
      name: `${v.name} (female)`,
      language: local,
      gender: 'female' as const,
      sampleRate: PICO_SAMPLE_RATE,
      quality: 'medium' as const,
    }));
  if (voices.length === 0) throw new Error(`the SVOX Pico language files are missing. ${PICO_INSTALL_HINT}`);
  return voices;
}

/**
 * Pico's output gain (its signal generator's volume modifier) in percent. Upstream SVOX Pico
 * starts at 100, which drives ordinary sentences past full scale: the generator saturates them
 * (peak 0 dBFS, hundreds of clipped samples a sentence). Debian's libttspico patches the default
 * to 50 ("Too high volume brings clipping"); the npm WebAssembly build is unpatched, so it came
 * out 6 dB louder than pico2wave and clipped. Setting the level explicitly gives both engines
 * the same, unclipped level whatever their build's default. An opening tag without a closing
 * one: a closing `</volume>` adds a pause.
 */
export const PICO_VOLUME_LEVEL = 50;

/**
 * The text with Pico's own markup for output level, rate and pitch (percent). Angle brackets in
 * the text become spaces so that text cannot open markup of its own.
 */
export function picoText(request: Pick<SynthesisRequest, 'text' | 'rate' | 'pitch'>): string {
  let text = request.text.replace(/[<>]/g, ' ');
  if (request.pitch !== 1) text = `<pitch level="${clamp(request.pitch * 100, 50, 200)}">${text}</pitch>`;
  if (request.rate !== 1) text = `<speed level="${clamp(request.rate * 100, 20, 500)}">${text}</speed>`;
  return `<volume level="${PICO_VOLUME_LEVEL}">${text}`;
}

function clamp(value: number, min: number, max: number): number {
  return Math.round(Math.min(max, Math.max(min, value)));
}
