import { cliAdapter, type CliOverrides } from '../cli-adapter';
import { printing } from '../identity';
import type { SynthesisRequest } from '../engine';
import { findPicoFiles, PICO_DEFAULT_VOICE, picoText, picoVoices } from '../svox-pico/voices';

const ID = 'pico2wave';
/** pico2wave reads its language files from the folder compiled into it. */
const LANG_DIR = '/usr/share/pico/lang';

export function pico2waveCommand(request: SynthesisRequest, wavFile: string) {
  return { args: ['-l', request.voice, '-w', wavFile], input: picoText(request) };
}

/**
 * pico2wave has no --version. `pico2wave --usage` prints "Usage: pico2wave [-?]
 * [-w|--wave=filename.wav] [-l|--lang=lang] …", the program name taken from argv[0]: the
 * options are what identify it.
 */
export const PICO2WAVE_IDENTITY = printing('pico2wave', ['--usage'], /\[-w\|--wave=filename\.wav\] \[-l\|--lang=lang\]/);

/**
 * The system's `pico2wave` (Debian non-free libttspico-utils). It has no voice listing: a voice
 * is there when its language files are. Text goes on stdin, which it reads when given no words.
 */
export function pico2waveAdapter(overrides: CliOverrides = {}) {
  return cliAdapter(
    {
      id: ID,
      name: 'SVOX Pico (pico2wave)',
      capabilities: { rate: true, pitch: true, volume: false },
      program: 'pico2wave',
      installHint: 'Install Debian non-free packages libttspico-utils and libttspico-data.',
      identity: PICO2WAVE_IDENTITY,
      preferredVoices: [PICO_DEFAULT_VOICE],
      async voices() {
        return picoVoices(ID, (voice) => findPicoFiles(voice, [LANG_DIR]) !== null);
      },
      command: (request, files) => pico2waveCommand(request, files.wavFile),
    },
    overrides,
  );
}
