import type { Voice } from '../../contract';
import { toBcp47, type SynthesisRequest } from '../engine';
import type { TempFiles } from '../cli';
import { cliAdapter, type CliOverrides } from '../cli-adapter';
import type { ProgramIdentity } from '../identity';

const ID = 'macos-say';
/** say writes whatever format it is asked for: 16-bit little-endian PCM at this rate. */
const SAMPLE_RATE = 22050;
/** say's default speaking rate in words per minute. */
const DEFAULT_WPM = 175;

const LOCALE = /^[A-Za-z]{2,3}(?:[_-][A-Za-z0-9]+)*$/;

/**
 * A line of `say -v '?'`: "<name>  <locale>  # <sample sentence>". Names may hold spaces and
 * parentheses ("Eddy (English (US))"); the locale is the last word before the "#". Cut with
 * string operations: a regular expression for the whole line backtracks badly on long lines.
 */
function parseVoiceLine(line: string): { name: string; locale: string } | null {
  const left = line.slice(0, Math.max(0, line.indexOf('#'))).trimEnd();
  const cut = Math.max(left.lastIndexOf(' '), left.lastIndexOf('\t'));
  const name = left.slice(0, Math.max(0, cut)).trim();
  const locale = left.slice(cut + 1);
  return name && LOCALE.test(locale) ? { name, locale } : null;
}

/**
 * say has no --version, and macOS cannot be run here to record its usage: what identifies it is
 * its voice listing, of which every line is a voice.
 */
export const SAY_IDENTITY: ProgramIdentity = {
  name: 'macOS say',
  args: ['-v', '?'],
  recognises: (output) => {
    const lines = output.split('\n').filter((line) => line.trim());
    return lines.length > 0 && lines.every((line) => parseVoiceLine(line) !== null);
  },
};

/** Parses `say -v '?'`, one voice per line. */
export function parseSayVoices(output: string): Voice[] {
  const voices = new Map<string, Voice>();
  for (const line of output.split('\n')) {
    const voice = parseVoiceLine(line);
    if (!voice || voices.has(voice.name)) continue;
    const { name, locale } = voice;
    voices.set(name, {
      id: `${ID}:${name}`,
      name,
      language: toBcp47(locale),
      sampleRate: SAMPLE_RATE,
      // Apple's downloadable "(Enhanced)" and "(Premium)" voices are neural.
      quality: /\((Enhanced|Premium)\)/.test(name) ? 'high' : 'medium',
    });
  }
  return [...voices.values()];
}

export function sayCommand(request: SynthesisRequest, files: TempFiles) {
  return {
    args: [
      '-v',
      request.voice,
      '-r',
      String(Math.round(DEFAULT_WPM * request.rate)),
      '-o',
      files.wavFile,
      '--file-format=WAVE',
      `--data-format=LEI16@${SAMPLE_RATE}`,
      '-f',
      files.textFile,
    ],
  };
}

/** macOS's `say` (always there on macOS), with every voice installed in System Settings. */
export function macosSayAdapter(overrides: CliOverrides = {}) {
  return cliAdapter(
    {
      id: ID,
      name: 'macOS speech (say)',
      capabilities: { rate: true, pitch: false, volume: false },
      program: '/usr/bin/say',
      platform: 'darwin',
      installHint: 'It ships with macOS; more voices: System Settings › Accessibility › Spoken Content.',
      identity: SAY_IDENTITY,
      preferredVoices: ['Samantha', 'Alex'],
      // The identity's answer is the voice listing.
      voices: async (_say, identified) => parseSayVoices(identified),
      command: sayCommand,
    },
    overrides,
  );
}
