import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../../contract';
import { engineEnvironment } from '../child-env';
import { int16View } from '../../audio/wav';
import { PRIVATE_DIR_MODE } from '../../storage/private-files';
import { TEMP_PREFIX } from '../cli';
import { ENGINE_TIMEOUT_MS } from '../engine';
import { LaneLimiter, type Lane } from '../lanes';
import { MODEL_HOST_FLAG, samplesFile, type HostReply, type HostRequest } from './protocol';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = WithoutId<HostRequest>;
type Reply = Extract<HostReply, { ok: true }>;
type Success = Omit<Reply, 'samples'> & { samples?: Int16Array };

export interface ModelProcessOptions {
  /** A request still running after this long kills the process (engine_timeout). Default ENGINE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The Node (or Electron-as-Node) binary that runs the bundle; default process.execPath. */
  execPath?: string;
  /**
   * The folder each process's private folder of samples files (`orator-XXXXXX`) goes in; default
   * os.tmpdir(). The gateway passes `<dataDir>/tmp`, cleared at start (cli.ts, clearTempDir).
   */
  tempDir?: string;
}

/**
 * The parent's side of the model process: one request at a time, interactive requests (inline,
 * preview) before batch ones (job chunks), the process started on demand and started again after
 * it dies. A request that takes too long kills it (engine_timeout); a request it dies on fails with
 * what it last printed; a process that cannot be started or reached fails the request with
 * engine_error (never an uncaught 'error' event in the gateway).
 */
export class ModelProcess {
  private child: ChildProcess | undefined;
  /** The running process's folder of samples files (protocol.ts), removed when it ends. */
  private samplesDir = '';
  private stderr = '';
  private nextId = 1;
  private readonly slots = new LaneLimiter(1);
  private readonly timeoutMs: number;

  constructor(
    /** The built worker bundle, which serves models when given MODEL_HOST_FLAG. */
    private readonly entry: string,
    private readonly options: ModelProcessOptions = {},
  ) {
    this.timeoutMs = options.timeoutMs ?? ENGINE_TIMEOUT_MS;
  }

  async request(request: Request, lane: Lane = 'interactive', signal?: AbortSignal): Promise<Success> {
    // the samples are read after the process is free: it takes the next request meanwhile
    const { reply, dir } = await this.slots.run(lane, () => this.send(request, signal), signal);
    return this.withSamples(reply, dir);
  }

  /** Ends the process now, even mid-request; the next request starts a new one. */
  stop(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }

  /** Ends the process once the requests already queued ahead of this call are done (frees loaded models). */
  release(): Promise<void> {
    return this.slots.run('interactive', async () => this.stop());
  }

  private start(): ChildProcess {
    this.stderr = '';
    const root = this.options.tempDir ?? os.tmpdir();
    mkdirSync(root, { recursive: true, mode: PRIVATE_DIR_MODE });
    const dir = (this.samplesDir = mkdtempSync(path.join(root, TEMP_PREFIX)));
    const child = fork(this.entry, [MODEL_HOST_FLAG, dir], {
      env: engineEnvironment(),
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
      ...(this.options.execPath ? { execPath: this.options.execPath } : {}),
    });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2000);
    });
    // An idle model process must not keep Orator running.
    child.unref();
    child.channel?.unref();
    const forget = () => {
      if (this.child === child) this.child = undefined;
    };
    child.on('exit', forget);
    child.once('exit', () => void rm(dir, { recursive: true, force: true }).catch(() => undefined));
    // A failed fork (no 'exit' follows) or a failed kill: without this listener an uncaught
    // exception in the gateway. The request in flight sees it through its own listener.
    child.on('error', () => {
      forget();
      try {
        if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    });
    child.on('disconnect', forget);
    return child;
  }

  /** A synthesis's samples, from the file the model process wrote them to (deleted once read). */
  private async withSamples(reply: Reply, dir: string): Promise<Success> {
    if (reply.samples === undefined) return { ...reply, samples: undefined };
    const file = samplesFile(dir, reply.id);
    try {
      const samples = int16View(await readFile(file));
      if (samples.length !== reply.samples) throw new Error(`${samples.length} samples where it wrote ${reply.samples}`);
      return { ...reply, samples };
    } catch (error) {
      throw new ApiError('engine_error', `The neural model process's audio could not be read: ${(error as Error).message}`);
    } finally {
      await rm(file, { force: true });
    }
  }

  private send(request: Request, signal?: AbortSignal): Promise<{ reply: Reply; dir: string }> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const child = (this.child ??= this.start());
    const dir = this.samplesDir;
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      let settled = false;
      const finish = (settle: () => void) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('exit', onExit);
        child.off('error', onError);
        settle();
      };
      const onMessage = (reply: HostReply) => {
        if (reply.id !== id) return;
        finish(() => (reply.ok ? resolve({ reply, dir }) : reject(new Error(reply.message))));
      };
      const onExit = (code: number | null, exitSignal: NodeJS.Signals | null) => {
        const said = this.stderr.trim().split('\n').slice(-2).join(' ');
        finish(() => reject(new Error(`the model process stopped (${exitSignal ?? `exit code ${code}`})${said ? `: ${said}` : ''}`)));
      };
      const onError = (error: Error) => {
        if (this.child === child) this.stop();
        finish(() => reject(new ApiError('engine_error', `The neural model process failed: ${error.message}`)));
      };
      const onAbort = () => {
        this.stop();
        finish(() => reject(signal!.reason));
      };
      const timer = setTimeout(() => {
        this.stop();
        finish(() =>
          reject(new ApiError('engine_timeout', `The neural model did not finish within ${this.timeoutMs / 1000} s and was stopped.`)),
        );
      }, this.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.on('error', onError);
      // With a callback, a closed channel (the process gone between requests) is reported here
      // instead of as an 'error' event.
      child.send({ ...request, id } satisfies HostRequest, (error) => {
        if (error) onError(error);
      });
    });
  }
}
