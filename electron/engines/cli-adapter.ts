import { stat } from 'node:fs/promises';
import os from 'node:os';
import type { Capabilities, PhonemeAlphabet, Voice } from '../contract';
import { splitAtBreaks } from '../audio/breaks';
import type { EngineAdapter, Probe, SynthesisContext, SynthesisRequest } from './engine';
import { findExecutable, standardProgramDirs, synthesizeWithTool, type TempFiles, type ToolCommand, type ToolRunner } from './cli';
import { confirmIdentity, vetProgram, type ProgramIdentity } from './identity';
import { trustedProgram, UntrustedProgram } from './executable';
import { LaneLimiter } from './lanes';
import { filesFingerprint, ProbeMemo, type ProbeOptions } from './probe-memo';

/** What a probe found: the answer, and the vetted program with its version for synthesis. */
interface Found {
  probe: Probe;
  executable: string | null;
  version: string;
}

const probes = new ProbeMemo<Found>((found) => found.probe.available);

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
  /** Programs that read several texts in one run, with breaks between them (see CliBatchSpec). */
  batch?: CliBatchSpec;
  /**
   * Where the voices come from besides the program (files and folders), for engines whose probe
   * is costly: given, a start-up probe in a process that probed the engine before answers the same
   * while the program, these and the engines' environment are unchanged (probe-memo.ts).
   */
  voiceFiles?: (program: string) => string[];
}

/**
 * Several texts in one run of the program, where starting it costs more than a short text: the
 * texts joined by breaks of digital silence, and the audio split again at them (audio/breaks.ts).
 */
export interface CliBatchSpec {
  /** Characters of text per run at most. */
  maxChars: number;
  /** The texts as one text for `command`, with a break of at least `minBreakMs` between each two. */
  join(texts: string[], request: SynthesisRequest): string;
  /** The command line for a joined text. */
  command(request: SynthesisRequest, files: TempFiles): ToolCommand;
  /** The shortest a break comes out at any rate; longer than any pause within speech. */
  minBreakMs: number;
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
 * An engine adapter around a program run as a child process, one process per request (or batch of
 * requests, where the program can tell them apart), with at most `concurrency` of them at once: a
 * job must not start a process per chunk all at the same time, and an inline request or preview
 * waits only for a free slot, never behind queued chunks.
 */
export function cliAdapter(spec: CliEngineSpec, overrides: CliOverrides = {}): EngineAdapter {
  /** The vetted program's real path; null until a probe vetted it. */
  let executable: string | null = null;
  /** The vetted program as a file (path, size, time of its last change) and what it says it is. */
  let version = '';
  const platform = overrides.platform ?? process.platform;
  const batchSlots = overrides.concurrency ?? Math.max(1, os.availableParallelism());
  // a slot more for interactive requests, whose process also runs ahead of the niced batch ones
  const slots = new LaneLimiter(batchSlots + 1, { batch: batchSlots });
  const { batch } = spec;
  async function run(text: string, command: (files: TempFiles) => ToolCommand, { lane, signal }: SynthesisContext) {
    const program = executable;
    if (!program) throw new Error(`${spec.name} has not been found`);
    // The time limit starts with the process, not while the request waits for a slot.
    return slots.run(
      lane,
      () =>
        synthesizeWithTool(program, command, text, {
          signal,
          timeoutMs: overrides.timeoutMs,
          tempDir: overrides.tempDir,
          runTool: overrides.runTool,
          background: lane === 'batch',
        }),
      signal,
    );
  }
  async function synthesizeBatch(batchSpec: CliBatchSpec, requests: SynthesisRequest[], context: SynthesisContext) {
    const first = requests[0]!;
    const texts = requests.map((r) => r.text);
    const joined = { ...first, text: batchSpec.join(texts, first) };
    const pcm = await run(joined.text, (files) => batchSpec.command(joined, files), context);
    const minBreak = Math.round((batchSpec.minBreakMs / 1000) * pcm.sampleRate);
    const ranges = splitAtBreaks(pcm.samples, requests.length, minBreak);
    if (!ranges) throw new Error(`${spec.name} ran ${requests.length} texts together: they could not be told apart`);
    // views, not copies: each piece is saved and written on, and the whole goes with the last of them
    return ranges.map(([start, end]) => ({ sampleRate: pcm.sampleRate, samples: pcm.samples.subarray(start, end) }));
  }
  return {
    id: spec.id,
    name: spec.name,
    kind: 'system',
    capabilities: spec.capabilities,
    ...(spec.phonemeAlphabet ? { phonemeAlphabet: spec.phonemeAlphabet } : {}),
    async probe(options: ProbeOptions = {}): Promise<Probe> {
      if (spec.platform && spec.platform !== platform) {
        return { available: false, reason: `${spec.name} exists only on ${PLATFORM_NAMES[spec.platform] ?? spec.platform}.` };
      }
      executable = null;
      const found = overrides.program ?? (await findExecutable(spec.program, standardProgramDirs(platform)));
      if (!found) return { available: false, reason: `${spec.program} was not found on PATH. ${spec.installHint}` };
      // the rules hold at every probe, a kept answer or not: the file's mode and owner may have changed
      let vetted: string;
      try {
        vetted = await trustedProgram(found, platform);
      } catch (error) {
        if (error instanceof UntrustedProgram) return { available: false, reason: `${error.message}.` };
        return { available: false, reason: `${found} does not work: ${(error as Error).message}` };
      }
      const ask = () => askProgram(spec, found, vetted);
      const probed = spec.voiceFiles
        ? await probes.answer(`${spec.id} ${vetted}`, await filesFingerprint([vetted, ...spec.voiceFiles(vetted)]), options, ask)
        : await ask();
      executable = probed.executable;
      version = probed.version;
      return probed.probe;
    },
    async vetProgram(file) {
      await vetProgram(file, spec.identity, platform);
    },
    synthesize(request, context) {
      return run(request.text, (files) => spec.command(request, files), context);
    },
    version: () => version,
    ...(batch ? { batchChars: batch.maxChars, synthesizeBatch: (requests, context) => synthesizeBatch(batch, requests, context) } : {}),
  };
}

/** Asks the vetted program what it is and which voices it has. */
async function askProgram(spec: CliEngineSpec, found: string, vetted: string): Promise<Found> {
  const unavailable = (reason: string): Found => ({ probe: { available: false, reason }, executable: null, version: '' });
  try {
    // Files change after they were configured: the identity is checked at every probe that runs the program.
    const identified = await confirmIdentity(vetted, spec.identity);
    const listed = await spec.voices(vetted, identified);
    const { voices, warnings } = Array.isArray(listed) ? { voices: listed, warnings: [] } : listed;
    if (voices.length === 0) {
      const skipped = warnings.length ? ` Skipped: ${warnings.join('; ')}` : '';
      return unavailable(`${spec.name} has no voices installed. ${spec.installHint}${skipped}`);
    }
    const preferred = spec.preferredVoices?.map((name) => voices.find((v) => v.id === `${spec.id}:${name}`)).find(Boolean);
    const file = await stat(vetted);
    return {
      probe: { available: true, voices, defaultVoice: (preferred ?? voices[0]!).id, ...(warnings.length ? { warnings } : {}) },
      // Synthesis runs the vetted real file: a symbolic link swapped later does not redirect it.
      executable: vetted,
      version: [vetted, file.size, file.mtimeMs, identified.split('\n', 1)[0]!.trim()].join(' '),
    };
  } catch (error) {
    if (error instanceof UntrustedProgram) return unavailable(`${error.message}.`);
    return unavailable(`${found} does not work: ${(error as Error).message}`);
  }
}

const PLATFORM_NAMES: Partial<Record<NodeJS.Platform, string>> = { darwin: 'macOS', win32: 'Windows', linux: 'Linux' };
