/**
 * Each system engine's identity check: the programs installed here (Debian's espeak-ng, flite,
 * festival, pico2wave, RHVoice) are run for real; Piper, Mimic 3, macOS say and Windows
 * PowerShell cannot run here, so scripts print what those programs print (recorded usage, the
 * say fixtures) and the checks are run on them.
 */
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESPEAK_NG_IDENTITY } from './espeak-ng-system/adapter';
import { UntrustedProgram } from './executable';
import { TEXT2WAVE_IDENTITY } from './festival/adapter';
import { FLITE_IDENTITY } from './flite-system/adapter';
import { confirmIdentity, printing, vetProgram, type ProgramIdentity } from './identity';
import { SAY_IDENTITY } from './macos-say/adapter';
import { MIMIC3_IDENTITY } from './mimic3/adapter';
import { PICO2WAVE_IDENTITY } from './pico2wave/adapter';
import { PIPER_IDENTITY } from './piper/adapter';
import { RHVOICE_IDENTITY } from './rhvoice/adapter';
import { POWERSHELL_IDENTITY } from './windows-sapi/adapter';

/** The engines this project's Debian 12 machines have installed, and their programs. */
const INSTALLED: [ProgramIdentity, string][] = [
  [ESPEAK_NG_IDENTITY, '/usr/bin/espeak-ng'],
  [FLITE_IDENTITY, '/usr/bin/flite'],
  [TEXT2WAVE_IDENTITY, '/usr/bin/text2wave'],
  [PICO2WAVE_IDENTITY, '/usr/bin/pico2wave'],
  [RHVOICE_IDENTITY, '/usr/bin/RHVoice-test'],
];
const ALL = [...INSTALLED.map(([identity]) => identity), PIPER_IDENTITY, MIMIC3_IDENTITY, SAY_IDENTITY, POWERSHELL_IDENTITY];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-identity-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

/** A program that prints `output` (to stderr when asked) whatever its arguments. */
async function fakeProgram(name: string, output: string, stream: 'stdout' | 'stderr' = 'stdout'): Promise<string> {
  const data = path.join(dir, `${name}.out`);
  await writeFile(data, output);
  const file = path.join(dir, name);
  await writeFile(file, `#!/bin/sh\ncat "${data}"${stream === 'stderr' ? ' >&2' : ''}\nexit 1\n`);
  await chmod(file, 0o755);
  return file;
}

const refusal = (file: string, identity: ProgramIdentity) =>
  confirmIdentity(file, identity).then(
    () => 'accepted',
    (error: unknown) => (error instanceof UntrustedProgram ? error.message : `unexpected: ${String(error)}`),
  );

describe('the installed engines', () => {
  it.each(INSTALLED.map(([identity, program]) => [identity.name, program, identity] as const))(
    '%s is recognised by what %s prints',
    async (_name, program, identity) => {
      expect(await refusal(program, identity)).toBe('accepted');
    },
  );

  it('are told apart from each other and from any other program', async () => {
    // festival itself is not text2wave: given text files, it would run them as Scheme.
    const programs = [...INSTALLED.map(([, program]) => program), '/usr/bin/festival'];
    for (const [identity, own] of INSTALLED) {
      for (const program of programs) {
        if (program === own) continue;
        expect(await refusal(program, identity)).toMatch(`${program} is not ${identity.name}`);
      }
    }
    const sh = await vetProgram('/bin/sh', printing('a shell', ['-c', 'echo shell'], /^shell$/m));
    for (const identity of ALL) expect(await refusal(sh, identity)).toMatch(`${sh} is not ${identity.name}`);
  });
});

describe('engines that cannot run here', () => {
  it('Piper TTS by its usage, not the gaming-mouse piper of Debian', async () => {
    const piper = await fakeProgram(
      'piper',
      'usage: piper [options]\n   -m  FILE  --model       FILE  path to onnx model file\n',
      'stderr',
    );
    expect(await refusal(piper, PIPER_IDENTITY)).toBe('accepted');
    const ratbag = await fakeProgram('ratbag-piper', 'usage: piper [-h] [--version]\nGTK application to configure gaming devices\n');
    expect(await refusal(ratbag, PIPER_IDENTITY)).toMatch('is not Piper TTS');
  });

  it("Mimic 3 by its argparse help's description", async () => {
    const mimic3 = await fakeProgram(
      'mimic3',
      'usage: mimic3_tts [-h] [--remote [REMOTE]] [--voice VOICE] [text ...]\n\nMimic 3 command-line interface\n',
    );
    expect(await refusal(mimic3, MIMIC3_IDENTITY)).toBe('accepted');
  });

  it('macOS say by its voice listing, every line a voice (recorded listings of macOS 10.14 and 14)', async () => {
    for (const fixture of ['say-v-macos-10.14.txt', 'say-v-macos-14.txt']) {
      const listing = await readFile(new URL(`./macos-say/fixtures/${fixture}`, import.meta.url), 'utf8');
      expect(await refusal(await fakeProgram(`say-${fixture}`, listing), SAY_IDENTITY)).toBe('accepted');
      const withNoise = await fakeProgram(`noisy-${fixture}`, `${listing}Usage: something else entirely\n`);
      expect(await refusal(withNoise, SAY_IDENTITY)).toMatch('is not macOS say');
    }
    expect(await refusal(await fakeProgram('silent', ''), SAY_IDENTITY)).toMatch('is not macOS say');
    // A wrong program may print anything: the check stays linear on a long line of near-misses.
    const started = performance.now();
    expect(SAY_IDENTITY.recognises(`Alex${' en_US'.repeat(40_000)} x #`)).toBe(false);
    expect(performance.now() - started).toBeLessThan(500);
  });

  it('PowerShell by an expression only PowerShell evaluates, not by a program that echoes its arguments', async () => {
    expect(await refusal(await fakeProgram('powershell', 'PowerShell Desktop\r\n'), POWERSHELL_IDENTITY)).toBe('accepted');
    const echo = path.join(dir, 'echo');
    await writeFile(echo, '#!/bin/sh\necho "$@"\n');
    await chmod(echo, 0o755);
    expect(await refusal(echo, POWERSHELL_IDENTITY)).toMatch(`${echo} is not Windows PowerShell`);
  });
});

describe('vetProgram', () => {
  it('checks the file rules before running anything', async () => {
    const marker = path.join(dir, 'ran');
    const writable = path.join(dir, 'writable');
    await writeFile(writable, `#!/bin/sh\ntouch "${marker}"\n`);
    await chmod(writable, 0o777);
    await expect(vetProgram(writable, PICO2WAVE_IDENTITY)).rejects.toThrow('can be changed by other users');
    await expect(readFile(marker)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it("gives the real path of a program that is what it says, and its answer (text2wave's lists the voices)", async () => {
    expect(await confirmIdentity('/usr/bin/text2wave', TEXT2WAVE_IDENTITY)).toMatch(/^kal_diphone\t/m);
    expect(await vetProgram('/usr/bin/pico2wave', PICO2WAVE_IDENTITY)).toBe('/usr/bin/pico2wave');
  });
});
