import { runTool } from '../cli';
import { cliAdapter, type CliOverrides } from '../cli-adapter';
import { printing } from '../identity';
import { FLITE_DEFAULT_VOICE, fliteArgs, fliteVoices, parseFliteVoiceList } from '../flite/voices';

const ID = 'flite-system';

/** `flite --version` (it exits with 1): "  version: flite-2.2-current Sep 2018 (http://cmuflite.org)". */
export const FLITE_IDENTITY = printing('Flite', ['--version'], /version: flite-\d/);

/** The system's `flite` program (Debian package flite), all its built-in voices. */
export function fliteSystemAdapter(overrides: CliOverrides = {}) {
  return cliAdapter(
    {
      id: ID,
      name: 'Flite (system)',
      capabilities: { rate: true, pitch: true, volume: false },
      program: 'flite',
      installHint: 'Install it: apt install flite (macOS: brew install flite).',
      identity: FLITE_IDENTITY,
      preferredVoices: [FLITE_DEFAULT_VOICE],
      async voices(executable) {
        return fliteVoices(ID, parseFliteVoiceList((await runTool(executable, ['-lv'])).stdout));
      },
      command: (request, files) => ({ args: fliteArgs(request, files.textFile, files.wavFile) }),
    },
    overrides,
  );
}
