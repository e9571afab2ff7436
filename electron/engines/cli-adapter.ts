import os from 'node:os';
import type { Capabilities, PhonemeAlphabet, Voice } from '../contract';
import type { EngineAdapter, Probe, SynthesisRequest } from './engine';
import { findExecutable, standardProgramDirs, synthesizeWithTool, type TempFiles, type ToolCommand, type ToolRunner } from './cli';
import { confirmIdentity, vetProgram, type ProgramIdentity } from './identity';
import { trustedProgram, UntrustedProgram } from './executable';
import { LaneLimiter } from './lanes';

/** What makes a system engine: its program, how to list its voices and the command line that writes a WAV. */
export interface CliEngineSpec {
  id: string;
  name: string;
  capabilities: Capabilities;
  /** The phoneme alphabet the program reads inline in text, if any. */
  phonemeAlphabet?: PhonemeAlphabet;
  /** The program, looked up on PATH and in the standard program folders. */
  program: string;
  /** The engine exists only on this platform (macOS `say`, Windows SAPI). */
  platform?: NodeJS.Platform;
  /** How to get the engine, for the unavailable reason. */
  installHint: string;
  /** How the program shows it is this engine; asked at every probe, before any text reaches it. */
  identity: ProgramIdentity;
  /**
   * Lists the voices; throws with a sentence a user understands when the engine is broken.
   * Warnings name what was skipped (a malformed voice file) without making the engine unavailable.
   * `identified` is what the program printed for its identity: some engines list voices there,
   * which saves starting them twice.
   */
  voices(executable: string, identified: string): Promise<Voice[] | { voices: Voice[]; warnings: string[] }>;
  /** Local voice names to use by default, best first; otherwise the first voice. */
  preferredVoices?: string[];
  command(request: SynthesisRequest, files: TempFiles): ToolCommand;
}

/** Settings tests and the user's configuration may override. */
export interface CliOverrides {
  /** The absolute path of the program to use instead of the spec's (the engine_executables setting). */
  program?: string;
  timeoutMs?: number;
  platform?: NodeJS.Platform;
  /** Engine processes at once (default: one per core); more requests wait, interactive ones first. */
  concurrency?: number;
  /** Where each request's temp folder goes (default os.tmpdir()); see SynthesizeToolOptions.tempDir. */
  tempDir?: string;
  /** What starts the program (the gateway's spawn host); default: this process. */
  runTool?: ToolRunner;
}

/**
 * An engine adapter around a program run as a child process, one process per request, with at
 * most `concurrency` of them at once: a job must not start a process per chunk all at the same
 * time, and an inline request or preview waits only for a free slot, never behind queued chunks.
 */
export function cliAdapter(spec: CliEngineSpec, overrides: CliOverrides = {}): EngineAdapter {
  /** The vetted program's real path; null until a probe vetted it. */
  let executable: string | null = null;
  const platform = overrides.platform ?? process.platform;
  const batch = overrides.concurrency ?? Math.max(1, os.availableParallelism());
  // a slot more for interactive requests, whose process also runs ahead of the niced batch ones
  const slots = new LaneLimiter(batch + 1, { batch });
  return {
    id: spec.id,
    name: spec.name,
    kind: 'system',
    capabilities: spec.capabilities,
    ...(spec.phonemeAlphabet ? { phonemeAlphabet: spec.phonemeAlphabet } : {}),
    async probe(): Promise<Probe> {
      if (spec.platform && spec.platform !== platform) {
        return { available: false, reason: `${spec.name} exists only on ${PLATFORM_NAMES[spec.platform] ?? spec.platform}.` };
      }
      executable = null;
      const found = overrides.program ?? (await findExecutable(spec.program, standardProgramDirs(platform)));
      if (!found) return { available: false, reason: `${spec.program} was not found on PATH. ${spec.installHint}` };
      try {
        // Files change after they were configured: the rules and the identity are checked at every probe.
        const vetted = await trustedProgram(found, platform);
        const listed = await spec.voices(vetted, await confirmIdentity(vetted, spec.identity));
        const { voices, warnings } = Array.isArray(listed) ? { voices: listed, warnings: [] } : listed;
        if (voices.length === 0) {
          const skipped = warnings.length ? ` Skipped: ${warnings.join('; ')}` : '';
          return { available: false, reason: `${spec.name} has no voices installed. ${spec.installHint}${skipped}` };
        }
        const preferred = spec.preferredVoices?.map((name) => voices.find((v) => v.id === `${spec.id}:${name}`)).find(Boolean);
        // Synthesis runs the vetted real file: a symbolic link swapped later does not redirect it.
        executable = vetted;
        return { available: true, voices, defaultVoice: (preferred ?? voices[0]!).id, ...(warnings.length ? { warnings } : {}) };
      } catch (error) {
        if (error instanceof UntrustedProgram) return { available: false, reason: `${error.message}.` };
        return { available: false, reason: `${found} does not work: ${(error as Error).message}` };
      }
    },
    async vetProgram(file) {
      await vetProgram(file, spec.identity, platform);
    },
    async synthesize(request, { lane, signal }) {
      const program = executable;
      if (!program) throw new Error(`${spec.name} has not been found`);
      // The time limit starts with the process, not while the request waits for a slot.
      return slots.run(
        lane,
        () =>
          synthesizeWithTool(program, (files) => spec.command(request, files), request.text, {
            signal,
            timeoutMs: overrides.timeoutMs,
            tempDir: overrides.tempDir,
            runTool: overrides.runTool,
            background: lane === 'batch',
          }),
        signal,
      );
    },
  };
}

const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };
