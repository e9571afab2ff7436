import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Voice } from '../../contract';
import { toBcp47, type SynthesisRequest } from '../engine';
import { espeakProsody } from '../espeak-ng/prosody';
import { runTool, type TempFiles } from '../cli';
import { cliAdapter, type CliBatchSpec, type CliOverrides } from '../cli-adapter';
import { printing } from '../identity';

const ID = 'espeak-ng-system';
const SAMPLE_RATE = 22050;
/** MBROLA diphone databases are 16 kHz. */
const MBROLA_SAMPLE_RATE = 16000;
/** Where Debian's mbrola-* packages put their databases. */
export const MBROLA_DIRS = ['/usr/share/mbrola', '/usr/local/share/mbrola'];

interface ListedVoice {
  language: string;
  gender?: 'male' | 'female';
  name: string;
  file: string;
}

/**
 * Parses `espeak-ng --voices[=mb]`:
 *  Pty Language       Age/Gender VoiceName          File                 Other Languages
 *   2  en-us           --/M      English_(America)  gmw/en-US            (en 3)
 */
function parseListing(listing: string): ListedVoice[] {
  const voices: ListedVoice[] = [];
  for (const line of listing.split('\n').slice(1)) {
    const [, language, ageGender, name, file] = line.trim().split(/\s+/);
    if (!language || !ageGender || !name || !file) continue;
    const gender = ageGender.endsWith('/F') ? 'female' : ageGender.endsWith('/M') ? 'male' : undefined;
    voices.push({ language, name: name.replaceAll('_', ' '), file, ...(gender ? { gender } : {}) });
  }
  return voices;
}

function toVoice(local: string, listed: ListedVoice, sampleRate: number, engineId: string): Voice {
  return {
    id: `${engineId}:${local}`,
    name: listed.name,
    language: toBcp47(listed.language),
    ...(listed.gender ? { gender: listed.gender } : {}),
    sampleRate,
    quality: 'low',
  };
}

/** The eSpeak NG voices of `espeak-ng --voices`, one per language, named by language. */
export function parseEspeakVoices(listing: string, engineId: string): Voice[] {
  const seen = new Set<string>();
  return parseListing(listing)
    .filter((v) => !seen.has(v.language) && seen.add(v.language))
    .map((v) => toVoice(v.language, v, SAMPLE_RATE, engineId));
}

/**
 * The MBROLA voices of `espeak-ng --voices=mb` whose database is installed (eSpeak NG lists
 * them all, installed or not), named like "mb-us1" as `-v` takes them.
 */
export function parseMbrolaVoices(listing: string, engineId: string, installed: (database: string) => boolean): Voice[] {
  return parseListing(listing).flatMap((v) => {
    const local = path.basename(v.file);
    const database = /^mb-([a-z]+\d+)/.exec(local)?.[1];
    return database && installed(database) ? [toVoice(local, v, MBROLA_SAMPLE_RATE, engineId)] : [];
  });
}

export function mbrolaInstalled(database: string): boolean {
  return MBROLA_DIRS.some((dir) => existsSync(path.join(dir, database)));
}

/** Command line that writes one WAV file; text comes from a file (no argv length limit). */
export function espeakCommand(request: SynthesisRequest, files: TempFiles) {
  const p = espeakProsody(request);
  return {
    args: [
      '-v',
      request.voice,
      '-s',
      String(p.wpm),
      '-p',
      String(p.pitch),
      '-a',
      String(p.amplitude),
      '-f',
      files.textFile,
      '-w',
      files.wavFile,
    ],
  };
}

/** The break between two texts at the normal rate and slower; longer as the rate shortens it. */
const BREAK_MS = 2500;

/**
 * A job's chunks run together, a few thousand characters per process: starting espeak-ng costs
 * about as much as speaking 250 characters. The texts are joined as SSML with a break between
 * them, which eSpeak writes as zeros; it shortens breaks as it speeds up (10 s come out at 2.5 s
 * at 700 words a minute), and its longest pause in speech is about 1 s (at its slowest, 80).
 */
const ESPEAK_BATCH: CliBatchSpec = {
  maxChars: 4000,
  minBreakMs: 1800,
  join: (texts, request) =>
    `<speak>${texts.map(escapeMarkup).join(`<break time="${Math.round(BREAK_MS * Math.max(1, request.rate))}ms"/>`)}</speak>`,
  command: (request, files) => ({ args: ['-m', ...espeakCommand(request, files).args] }),
};

/**
 * Text as SSML character data. Quotes stay as they are: eSpeak reads `&apos;` inside the phonemes
 * of a lexicon entry ([[h@l'oU]]) as the end of them.
 */
const escapeMarkup = (text: string) => text.replace(/[&<>]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;' })[c]!);

/** `espeak-ng --version`: "eSpeak NG text-to-speech: 1.51  Data at: …". */
export const ESPEAK_NG_IDENTITY = printing('eSpeak NG', ['--version'], /^eSpeak NG text-to-speech:/m);

/** The system's `espeak-ng` program (Debian package espeak-ng), with any installed MBROLA voices. */
export function espeakSystemAdapter(overrides: CliOverrides = {}) {
  return cliAdapter(
    {
      id: ID,
      name: 'eSpeak NG (system)',
      capabilities: { rate: true, pitch: true, volume: true },
      phonemeAlphabet: 'x-espeak',
      program: 'espeak-ng',
      installHint: 'Install it: apt install espeak-ng (MBROLA voices: apt install mbrola mbrola-us1).',
      identity: ESPEAK_NG_IDENTITY,
      preferredVoices: ['en-us'],
      async voices(executable) {
        const [plain, mbrola] = await Promise.all([runTool(executable, ['--voices']), runTool(executable, ['--voices=mb'])]);
        return [...parseEspeakVoices(plain.stdout, ID), ...parseMbrolaVoices(mbrola.stdout, ID, mbrolaInstalled)];
      },
      command: espeakCommand,
      batch: ESPEAK_BATCH,
    },
    overrides,
  );
}
