import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { decodeWav } from '../audio/wav';
import type { Pcm } from './engine';

const execFileAsync = promisify(execFile);

/** A hung engine process is killed after this long. */
export const TOOL_TIMEOUT_MS = 120_000;

export async function runTool(executable: string, args: string[], signal?: AbortSignal) {
  return execFileAsync(executable, args, {
    timeout: TOOL_TIMEOUT_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 16 * 1024 * 1024,
    encoding: 'utf8',
    ...(signal ? { signal } : {}),
  });
}

/**
 * Runs an engine program that reads text from a file and writes a WAV file. Files, not pipes:
 * several engines leave placeholder sizes in a piped WAV header, and flite hangs on one.
 */
export async function synthesizeToWavFile(
  executable: string,
  commandLine: (textFile: string, wavFile: string) => string[],
  text: string,
  signal?: AbortSignal,
): Promise<Pcm> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'orator-'));
  try {
    const textFile = path.join(dir, 'in.txt');
    const wavFile = path.join(dir, 'out.wav');
    await writeFile(textFile, text, 'utf8');
    await runTool(executable, commandLine(textFile, wavFile), signal);
    return decodeWav(await readFile(wavFile));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
