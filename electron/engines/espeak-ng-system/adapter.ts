import type { Voice } from '../../contract';
import type { EngineAdapter, Probe } from '../engine';
import { toBcp47 } from '../engine';
import { espeakProsody } from '../espeak-ng/prosody';
import { runTool, synthesizeToWavFile } from '../cli';

const SAMPLE_RATE = 22050;

/**
 * Parses `espeak-ng --voices`:
 *  Pty Language       Age/Gender VoiceName          File                 Other Languages
 *   2  en-us           --/M      English_(America)  gmw/en-US            (en 3)
 */
export function parseEspeakVoices(listing: string, engineId: string): Voice[] {
  const voices: Voice[] = [];
  const seen = new Set<string>();
  for (const line of listing.split('\n').slice(1)) {
    const [, language, ageGender, name] = line.trim().split(/\s+/);
    if (!language || !ageGender || !name || seen.has(language)) continue;
    seen.add(language);
    const gender = ageGender.endsWith('/F') ? 'female' : ageGender.endsWith('/M') ? 'male' : undefined;
    voices.push({
      id: `${engineId}:${language}`,
      name: name.replaceAll('_', ' '),
      language: toBcp47(language),
      ...(gender ? { gender } : {}),
      sampleRate: SAMPLE_RATE,
    });
  }
  return voices;
}

/** Command line that writes one WAV file; text comes from a file (no argv length limit). */
export function espeakCommand(voice: string, options: Parameters<typeof espeakProsody>[0], textFile: string, wavFile: string) {
  const p = espeakProsody(options);
  return ['-v', voice, '-s', String(p.wpm), '-p', String(p.pitch), '-a', String(p.amplitude), '-f', textFile, '-w', wavFile];
}

/** The system's `espeak-ng` program (Debian package espeak-ng), run as a child process. */
export function espeakSystemAdapter(executable = 'espeak-ng'): EngineAdapter {
  const id = 'espeak-ng-system';
  return {
    id,
    name: 'eSpeak NG (system)',
    capabilities: { rate: true, pitch: true, volume: true },
    async probe(): Promise<Probe> {
      try {
        const { stdout } = await runTool(executable, ['--voices']);
        const voices = parseEspeakVoices(stdout, id);
        if (voices.length === 0) return { available: false, reason: 'espeak-ng lists no voices' };
        const preferred = voices.find((v) => v.id === `${id}:en-us`) ?? voices[0]!;
        return { available: true, voices, defaultVoice: preferred.id };
      } catch (error) {
        return {
          available: false,
          reason: `espeak-ng is not installed or does not run (${(error as Error).message}). Install it: apt install espeak-ng`,
        };
      }
    },
    synthesize(request, { signal }) {
      return synthesizeToWavFile(executable, (textFile, wavFile) => espeakCommand(request.voice, request, textFile, wavFile), request.text, signal);
    },
  };
}
