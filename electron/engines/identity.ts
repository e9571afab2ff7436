/**
 * Confirming that a system engine's program is that engine before it is given any text. Text goes
 * to engines on stdin or in a file: the wrong program (an editor configured as pico2wave) would
 * take it as commands.
 */
import { runToolRaw } from './cli';
import { trustedProgram, UntrustedProgram } from './executable';

/** How an engine's program shows what it is. */
export interface ProgramIdentity {
  /** What the program should be, for the reason: "/usr/bin/vim is not pico2wave". */
  name: string;
  /** Arguments that make it print its version or usage and exit; no text, no files. */
  args: string[];
  /**
   * Whether that output (stdout and stderr, whatever the exit code) is this program's. It runs on
   * whatever a wrong program prints: keep it linear (no nested or ambiguous repetition).
   */
  recognises(output: string): boolean;
}

/** An identity whose program's output contains `pattern`. */
export function printing(name: string, args: string[], pattern: RegExp): ProgramIdentity {
  return { name, args, recognises: (output) => pattern.test(output) };
}

/** Printing a version or usage is quick; text2wave, which starts Festival, takes the longest (0.25 s). */
const IDENTITY_TIMEOUT_MS = 10_000;
/** Usage texts and say's voice listing are far shorter; a wrong program may print without end. */
const MAX_IDENTITY_OUTPUT = 256 * 1024;

/**
 * Runs the program with the identity's arguments and returns what it printed; throws
 * UntrustedProgram when that is not the program's answer.
 */
export async function confirmIdentity(executable: string, identity: ProgramIdentity): Promise<string> {
  let output: string;
  try {
    const { stdout, stderr } = await runToolRaw(executable, identity.args, { timeoutMs: IDENTITY_TIMEOUT_MS, anyExitCode: true });
    output = (stdout.toString('utf8') + stderr).slice(0, MAX_IDENTITY_OUTPUT);
  } catch (error) {
    throw new UntrustedProgram(`${executable} could not be asked what it is: ${(error as Error).message}`);
  }
  if (!identity.recognises(output)) {
    throw new UntrustedProgram(`${executable} is not ${identity.name} (its answer to "${identity.args.join(' ')}" does not say so)`);
  }
  return output;
}

/**
 * The real path of `file` once it passes the file rules (trustedProgram) and says it is the
 * program of `identity`; throws UntrustedProgram with the reason otherwise.
 */
export async function vetProgram(file: string, identity: ProgramIdentity, platform = process.platform): Promise<string> {
  const real = await trustedProgram(file, platform);
  await confirmIdentity(real, identity);
  return real;
}
