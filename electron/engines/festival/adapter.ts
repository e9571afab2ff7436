import os from 'node:os';
import path from 'node:path';
import type { QualityTier, Voice } from '../../contract';
import type { SynthesisRequest } from '../engine';
import type { TempFiles } from '../cli';
import { cliAdapter, type CliOverrides } from '../cli-adapter';
import type { ProgramIdentity } from '../identity';
import { festivalVoiceName } from '../voice-names';

const ID = 'festival';
/** Where voices are installed beside the program (Debian, /usr/local, Homebrew): a folder per language, a voice folder in each. */
const festivalVoiceDirs = (text2wave: string) => [
  path.join(path.dirname(text2wave), '..', 'share', 'festival', 'voices'),
  '/usr/share/festival/voices',
];
/** text2wave resamples to this (-F): voices range from 8 to 32 kHz, a voice's rate must be known up front. */
const SAMPLE_RATE = 16000;

/** One line per voice: name, language, gender, dialect, tab-separated (parsed by parseFestivalVoices). */
export const LIST_VOICES = `(mapcar (lambda (v) (let ((d (cadr (voice.description v)))) (format t "%s\\t%s\\t%s\\t%s\\n" v (cadr (assoc 'language d)) (cadr (assoc 'gender d)) (cadr (assoc 'dialect d))))) (voice.list))`;

/** Festival's language and dialect names as BCP 47. */
const LANGUAGES: Record<string, string> = {
  'english/american': 'en-US',
  'english/british': 'en-GB',
  'english/scottish': 'en-GB-scotland',
  english: 'en',
  spanish: 'es',
  italian: 'it',
  czech: 'cs',
  finnish: 'fi',
  russian: 'ru',
  welsh: 'cy',
  catalan: 'ca',
  hindi: 'hi',
  marathi: 'mr',
  telugu: 'te',
  german: 'de',
  french: 'fr',
  polish: 'pl',
};

/** Diphone and MBROLA voices sound robotic; clustergen, HTS and unit selection do better. */
function quality(voice: string): QualityTier {
  return /_(diphone|mbrola)$/.test(voice) ? 'low' : 'medium';
}

/** Parses the output of LIST_VOICES, e.g. "kal_diphone\tenglish\tmale\tamerican". */
export function parseFestivalVoices(output: string): Voice[] {
  return output
    .split('\n')
    .map((line) => line.trim().split('\t'))
    .filter(([name]) => name && /^[\w-]+$/.test(name))
    .map(([name, language = 'nil', gender, dialect]) => {
      const tag = LANGUAGES[`${language}/${dialect}`] ?? LANGUAGES[language] ?? 'und';
      const known = gender === 'male' || gender === 'female' ? gender : undefined;
      return {
        id: `${ID}:${name}`,
        name: festivalVoiceName(name!, tag, known),
        language: tag,
        ...(known ? { gender: known } : {}),
        sampleRate: SAMPLE_RATE,
        quality: quality(name!),
      };
    });
}

/**
 * text2wave's command line. Speed: Duration_Stretch for Festival's own duration models, the
 * HTS engine's "-r" for HTS voices (they ignore Duration_Stretch). Volume: -scale.
 */
export function festivalCommand(request: SynthesisRequest, files: TempFiles) {
  const stretch = Math.round((1 / request.rate) * 1000) / 1000;
  const speed = request.voice.endsWith('_hts')
    ? `(set! hts_engine_params (cons (list "-r" ${request.rate}) hts_engine_params))`
    : `(Parameter.set 'Duration_Stretch ${stretch})`;
  const args = ['-F', String(SAMPLE_RATE), '-scale', String(request.volume), '-eval', `(voice_${request.voice})`];
  if (request.rate !== 1) args.push('-eval', speed);
  return { args: [...args, '-o', files.wavFile, files.textFile] };
}

/** The line TEXT2WAVE_IDENTITY prints; computed, so that a program echoing its arguments does not print it. */
const TEXT2WAVE_MARK = 'orator:text2wave';

/**
 * text2wave has no --version, and `-h` costs a whole Festival start (0.25 s) like a voice listing
 * does: one start does both. `-eval` is an option of text2wave, not of festival (which refuses
 * it); the mark is printed only where text2wave's own get_options is defined, then the voices
 * are listed and it quits before reading any text.
 */
export const TEXT2WAVE_IDENTITY: ProgramIdentity = {
  name: "Festival's text2wave",
  args: [
    '-eval',
    `(begin (if (boundp 'get_options) (begin (format t "%s\\n" (string-append "orator:" "text2wave")) ${LIST_VOICES})) (quit))`,
  ],
  recognises: (output) => output.split('\n').includes(TEXT2WAVE_MARK),
};

/** Festival's text2wave (Debian packages festival + a festvox-* voice). */
export function festivalAdapter(overrides: CliOverrides = {}) {
  return cliAdapter(
    {
      id: ID,
      name: 'Festival',
      capabilities: { rate: true, pitch: false, volume: true },
      program: 'text2wave',
      installHint: 'Install it with a voice: apt install festival festvox-kallpc16k.',
      identity: TEXT2WAVE_IDENTITY,
      preferredVoices: ['cmu_us_slt_arctic_hts', 'kal_diphone'],
      // The identity's answer lists the voices.
      voices: async (_text2wave, identified) => parseFestivalVoices(identified),
      // Listing them loads every voice (1.6 CPU-s here): a restart in this process reuses it while these hold.
      voiceFiles: (text2wave) => [...festivalVoiceDirs(text2wave), path.join(os.homedir(), '.festivalrc'), '/etc/festival.scm'],
      command: festivalCommand,
    },
    overrides,
  );
}
