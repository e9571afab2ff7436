import type { Voice } from '../../contract';
import { toBcp47 } from '../engine';
import { runTool } from '../cli';
import { cliAdapter, type CliOverrides } from '../cli-adapter';
import { printing } from '../identity';
import { NEURAL } from '../piper/voice-config';

const ID = 'mimic3';
/** Every Mimic 3 voice is a 22.05 kHz VITS model. */
const SAMPLE_RATE = 22050;

/**
 * Parses `mimic3 --voices`, tab-separated: KEY LANGUAGE NAME DESCRIPTION LOCATION. Mimic 3 also
 * lists the voices of its download catalogue, whose location is a URL: only local ones count.
 */
export function parseMimic3Voices(output: string): Voice[] {
  return output
    .split('\n')
    .slice(1)
    .map((line) => line.replace(/\r$/, '').split('\t'))
    .filter(([key, , , , location]) => key && location && !/^\w+:\/\//.test(location))
    .map(([key, language, name, description]) => ({
      id: `${ID}:${key}`,
      name: description ? `${name} (${description})` : name!,
      // Mimic 3 writes "en_UK" where BCP 47 has "en-GB".
      language: toBcp47((language ?? 'und').replace(/_UK$/, '_GB')),
      sampleRate: SAMPLE_RATE,
      quality: NEURAL,
    }));
}

/** Text on stdin (one utterance per line), the whole WAV on stdout: Mimic 3 writes its header after synthesis. */
export function mimic3Command(voice: string, rate: number, text: string) {
  const args = ['--voice', voice, '--stdout'];
  if (rate !== 1) args.push('--length-scale', String(Math.round((1 / rate) * 1000) / 1000));
  return { args, input: text, wavOnStdout: true };
}

/** `mimic3 --version` prints a bare number; its argparse `--help` has the description "Mimic 3 command-line interface". */
export const MIMIC3_IDENTITY = printing('Mimic 3', ['--help'], /Mimic 3 command-line interface/);

/** Mycroft's Mimic 3 (pip install mycroft-mimic3-tts) with its downloaded voices. */
export function mimic3Adapter(overrides: CliOverrides = {}) {
  return cliAdapter(
    {
      id: ID,
      name: 'Mimic 3',
      capabilities: { rate: true, pitch: false, volume: false },
      program: 'mimic3',
      installHint: 'Install it: pipx install mycroft-mimic3-tts, then download a voice (mimic3-download en_US/vctk_low).',
      identity: MIMIC3_IDENTITY,
      async voices(executable) {
        return parseMimic3Voices((await runTool(executable, ['--voices'])).stdout);
      },
      command: (request) => mimic3Command(request.voice, request.rate, request.text),
    },
    overrides,
  );
}
