import type { Voice } from '../../contract';
import { toBcp47, type SynthesisRequest } from '../engine';
import { runTool, type TempFiles } from '../cli';
import { cliAdapter, type CliOverrides } from '../cli-adapter';

const ID = 'macos-say';
/** say writes whatever format it is asked for: 16-bit little-endian PCM at this rate. */
const SAMPLE_RATE = 22050;
/** say's default speaking rate in words per minute. */
const DEFAULT_WPM = 175;

/**
 * Parses `say -v '?'`: "<name>  <locale>  # <sample sentence>". Names may hold spaces and
 * parentheses ("Eddy (English (US))"); the locale is the last word before the "#".
 */
export function parseSayVoices(output: string): Voice[] {
  const voices = new Map<string, Voice>();
  for (const line of output.split('\n')) {
    const match = /^(.+?)\s+([A-Za-z]{2,3}(?:[_-][A-Za-z0-9]+)*)\s+#/.exec(line);
    if (!match || voices.has(match[1]!)) continue;
    const name = match[1]!;
    voices.set(name, {
      id: `${ID}:${name}`,
      name,
      language: toBcp47(match[2]!),
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
      preferredVoices: ['Samantha', 'Alex'],
      async voices(executable) {
        return parseSayVoices((await runTool(executable, ['-v', '?'])).stdout);
      },
      command: sayCommand,
    },
    overrides,
  );
}
