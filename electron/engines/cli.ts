/** Running engine programs as child processes: lookup, time limits, and WAV hand-over through temp files. */
import { spawn } from 'node:child_process';
import { constants } from 'node:fs';
import { access, mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../contract';
import { decodeWav } from '../audio/wav';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../storage/private-files';
import { engineEnvironment } from './child-env';
import type { Pcm } from '../audio/pcm';
import { ENGINE_TIMEOUT_MS } from './engine';
import { backgroundNice } from './thread-priority';

/** Listing voices is quick; a program that takes longer is treated as broken. */
export const PROBE_TIMEOUT_MS = 20_000;
/** The largest output kept: a WAV on stdout for a long chunk stays far below this. */
const MAX_OUTPUT_BYTES = 256 * 1024 * 1024;

export interface ToolOptions {
  signal?: AbortSignal | undefined;
  /** Written to the program's standard input, which is then closed. */
  input?: string | undefined;
  timeoutMs?: number | undefined;
  /** Resolve with the output whatever the exit code: programs asked for their usage often exit with 1. */
  anyExitCode?: boolean | undefined;
  /** Batch work: the program runs at a lower priority (nice 10), so that interactive ones get the cores first. */
  background?: boolean | undefined;
}

export interface ToolOutput {
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs a program to completion. It gets its own process group so that a timeout or an abort
 * also ends what it started (text2wave is a script that runs festival).
 */
export function runToolRaw(executable: string, args: string[], options: ToolOptions = {}): Promise<ToolOutput> {
  const timeoutMs = options.timeoutMs ?? ENGINE_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) return reject(options.signal.reason);
    const child = spawn(executable, args, {
      env: engineEnvironment(),
      stdio: [options.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
      detached: process.platform !== 'win32',
      windowsHide: true,
    });
    if (options.background && child.pid !== undefined) lowerPriority(child.pid);
    const stdout: Buffer[] = [];
    let stdoutBytes = 0;
    let stderr = '';
    let failure: unknown;
    const kill = (reason: unknown) => {
      failure ??= reason;
      try {
        if (child.pid !== undefined && process.platform !== 'win32') process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // Already gone.
      }
    };
    const timer = setTimeout(
      () =>
        kill(new ApiError('engine_timeout', `${path.basename(executable)} did not finish within ${timeoutMs / 1000} s and was stopped.`)),
      timeoutMs,
    );
    const onAbort = () => kill(options.signal!.reason);
    options.signal?.addEventListener('abort', onAbort, { once: true });

    child.stdout!.on('data', (chunk: Buffer) => {
      stdoutBytes += chunk.length;
      if (stdoutBytes > MAX_OUTPUT_BYTES) kill(new Error(`${path.basename(executable)} wrote more than ${MAX_OUTPUT_BYTES} bytes`));
      else stdout.push(chunk);
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      if (stderr.length < 64 * 1024) stderr += chunk;
    });
    if (options.input !== undefined) {
      // A program that exits without reading all its input must not crash us with EPIPE.
      child.stdin!.on('error', () => {});
      child.stdin!.end(options.input, 'utf8');
    }
    child.on('error', (error) => kill(error));
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (failure !== undefined) return reject(failure);
      if (code !== 0 && !options.anyExitCode) {
        const detail = lastLines(stderr) || lastLines(Buffer.concat(stdout).toString('utf8'));
        return reject(new Error(`${path.basename(executable)} exited with ${code ?? signal}${detail ? `: ${detail}` : ''}`));
      }
      resolve({ stdout: Buffer.concat(stdout), stderr });
    });
  });
}

function lowerPriority(pid: number): void {
  try {
    os.setPriority(pid, backgroundNice());
  } catch {
    // not allowed here, or already gone: it runs at normal priority
  }
}

/** Runs a program and returns its output as text (voice listings). */
export async function runTool(executable: string, args: string[], options: ToolOptions = {}) {
  const { stdout, stderr } = await runToolRaw(executable, args, { timeoutMs: PROBE_TIMEOUT_MS, ...options });
  return { stdout: stdout.toString('utf8'), stderr };
}

function lastLines(text: string): string {
  return text.trim().split('\n').slice(-3).join(' ').slice(0, 500);
}

export interface TempFiles {
  /** Holds the request text, UTF-8. */
  textFile: string;
  /** Where the program is to write its WAV. */
  wavFile: string;
}

export interface ToolCommand {
  args: string[];
  /** Standard input, for programs that read text only from there. */
  input?: string;
  /** The WAV comes on standard output instead of in `wavFile`. */
  wavOnStdout?: boolean;
  /**
   * The program succeeds without writing `wavFile` when the text has nothing it can say (RHVoice
   * on "?!" or on a script its voice lacks): that is silence at this rate, not a failure.
   */
  silentRate?: number;
}

/** The prefix of every request's temp folder (`<temp root>/orator-XXXXXX`). */
export const TEMP_PREFIX = 'orator-';

/** What runs a program: runToolRaw here, or the spawn host's run (spawn-host/client.ts). */
export type ToolRunner = (executable: string, args: string[], options?: ToolOptions) => Promise<ToolOutput>;

export interface SynthesizeToolOptions extends Pick<ToolOptions, 'signal' | 'timeoutMs' | 'background'> {
  /** Default runToolRaw, in this process. */
  runTool?: ToolRunner | undefined;
  /**
   * The folder the request's temp folder goes in (created when missing); default os.tmpdir().
   * The gateway passes `<dataDir>/tmp`, which it clears at start with clearTempDir: a process
   * killed mid-synthesis cannot remove its own temp folders.
   */
  tempDir?: string | undefined;
}

/**
 * Runs an engine program that writes one WAV. Files rather than pipes by default: several
 * engines leave placeholder sizes in a piped WAV header, and flite hangs on one.
 */
export async function synthesizeWithTool(
  executable: string,
  command: (files: TempFiles) => ToolCommand,
  text: string,
  options: SynthesizeToolOptions = {},
): Promise<Pcm> {
  const root = options.tempDir ?? os.tmpdir();
  if (options.tempDir !== undefined) await mkdir(root, { recursive: true, mode: PRIVATE_DIR_MODE });
  const dir = await mkdtemp(path.join(root, TEMP_PREFIX));
  try {
    const files = { textFile: path.join(dir, 'in.txt'), wavFile: path.join(dir, 'out.wav') };
    // the text is the user's: private like everything in the data dir (mkdtemp's folder is 0700 too)
    await writeFile(files.textFile, text, { encoding: 'utf8', mode: PRIVATE_FILE_MODE });
    const { args, input, wavOnStdout, silentRate } = command(files);
    const run = options.runTool ?? runToolRaw;
    const { signal, timeoutMs, background } = options;
    const { stdout } = await run(executable, args, { signal, timeoutMs, input, background });
    const program = path.basename(executable);
    const wav = wavOnStdout ? stdout : await readOutputFile(files.wavFile, program, silentRate !== undefined);
    return wav ? decodeOutput(program, wav) : { sampleRate: silentRate!, samples: new Int16Array(0) };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The WAV a program wrote; null when it wrote none and `noFileIsSilence` (engines that skip silent
 * text), else a clear engine_error when it wrote none or far too much.
 */
async function readOutputFile(file: string, program: string, noFileIsSilence: boolean): Promise<Buffer | null> {
  const size = await stat(file).then(
    (s) => s.size,
    () => null,
  );
  if (size === null && noFileIsSilence) return null;
  if (size === null) throw new ApiError('engine_error', `${program} exited without writing any audio.`);
  if (size > MAX_OUTPUT_BYTES) throw new ApiError('engine_error', `${program} wrote more than ${MAX_OUTPUT_BYTES} bytes of audio.`);
  return readFile(file);
}

/** A program's WAV as samples; anything else (garbage, an impossible format) is the engine's error. */
function decodeOutput(program: string, wav: Buffer): Pcm {
  try {
    return decodeWav(wav);
  } catch (error) {
    throw new ApiError('engine_error', `${program} wrote unusable audio: ${(error as Error).message}.`);
  }
}

/**
 * Removes the engine temp folders (`orator-*`) a killed process left in `dir`, and creates `dir`
 * when missing. Only those entries: anything else in the folder stays, so a `dir` that is shared
 * (os.tmpdir()) loses nothing but Orator's leftovers. Call it at start, before any synthesis,
 * while holding the data folder's lock (another running gateway's live folders would go too).
 * Returns how many entries were removed.
 */
export async function clearTempDir(dir: string): Promise<number> {
  await mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const leftovers = (await readdir(dir)).filter((name) => name.startsWith(TEMP_PREFIX));
  await Promise.all(leftovers.map((name) => rm(path.join(dir, name), { recursive: true, force: true })));
  return leftovers.length;
}

/** Folders where installers put programs that a desktop app's PATH often lacks. */
export function standardProgramDirs(platform = process.platform, home = os.homedir()): string[] {
  if (platform === 'win32') return [];
  const dirs = [path.join(home, '.local', 'bin'), '/usr/local/bin', '/usr/bin', '/opt/local/bin'];
  return platform === 'darwin' ? ['/opt/homebrew/bin', ...dirs] : dirs;
}

/** The full path of a program found on PATH or in `extraDirs`, or null. */
export async function findExecutable(name: string, extraDirs: string[] = [], env = process.env): Promise<string | null> {
  if (path.isAbsolute(name)) return (await isExecutable(name)) ? name : null;
  const dirs = [...(env.PATH ?? '').split(path.delimiter).filter(Boolean), ...extraDirs];
  const suffixes = process.platform === 'win32' ? ['', ...(env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';')] : [''];
  for (const dir of dirs) {
    for (const suffix of suffixes) {
      const candidate = path.join(dir, name + suffix);
      if (await isExecutable(candidate)) return candidate;
    }
  }
  return null;
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    if (!(await stat(file)).isFile()) return false;
    if (process.platform !== 'win32') await access(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
