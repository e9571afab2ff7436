import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ApiError } from '../../contract';
import { engineEnvironment } from '../child-env';
import { int16View } from '../../audio/wav';
import { PRIVATE_DIR_MODE } from '../../storage/private-files';
import { TEMP_PREFIX } from '../cli';
import { ENGINE_TIMEOUT_MS } from '../engine';
import { LaneLimiter, type Lane } from '../lanes';
import { MODEL_HOST_FLAG, samplesFile, type HostMessage, type HostReply, type HostRequest } from './protocol';

type WithoutIdAndLane<T> = T extends unknown ? Omit<T, 'id' | 'lane'> : never;
type Request = WithoutIdAndLane<Exclude<HostRequest, { type: 'cancel' }>>;
type Reply = Extract<HostReply, { ok: true }>;
type Success = Omit<Reply, 'samples'> & { samples?: Int16Array };

/**
 * Batch requests in the model process at once: the one it runs and the next, sent ahead so that it
 * never idles while the gateway handles a reply and sends the next chunk (docs/engines.md). One
 * more slot is kept for an interactive request, which the model process takes before queued batch
 * ones: a preview during a job waits only for the chunk that is running.
 */
export const BATCH_AHEAD = 2;

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

/** A request sent to a model process and not yet answered. */
interface Sent {
  id: number;
  request: Request;
  lane: Lane;
  child: ChildProcess;
  /** The folder of the process it was sent to (its samples file goes there). */
  dir: string;
  /** The model process said it began it (protocol.ts). */
  started: boolean;
  settle(outcome: { reply: Reply; dir: string } | Error): void;
}

/**
 * The parent's side of the model process: requests sent ahead (BATCH_AHEAD), interactive ones
 * (inline, preview) before batch ones (job chunks), the process started on demand and started again
 * after it dies. A request that takes too long kills it (engine_timeout); a request it dies on fails
 * with what it last printed, and the requests queued behind it go to a new process; a cancelled
 * request that has not begun is taken out of its queue (a running one kills the process); a process
 * that cannot be started or reached fails its requests with engine_error (never an uncaught 'error'
 * event in the gateway).
 */
export class ModelProcess {
  private child: ChildProcess | undefined;
  /** The running process's folder of samples files (protocol.ts), removed when it ends. */
  private samplesDir = '';
  private stderr = '';
  private nextId = 1;
  private readonly slots = new LaneLimiter(BATCH_AHEAD + 1, { batch: BATCH_AHEAD });
  private readonly sent = new Map<number, Sent>();
  private idle: (() => void)[] = [];
  /** Processes that began a request: one that dies before beginning any is not sent them again. */
  private readonly begun = new WeakSet<ChildProcess>();
  /** The time limit of the running process's current request (watch). */
  private watchdog: NodeJS.Timeout | undefined;
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
    const { reply, dir } = await this.slots.run(lane, () => this.send(request, lane, signal), signal);
    return this.withSamples(reply, dir);
  }

  /** Ends the process now, even mid-request; the next request starts a new one. */
  stop(): void {
    clearTimeout(this.watchdog);
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }

  /** Ends the process once the requests already queued ahead of this call are done (frees loaded models). */
  release(): Promise<void> {
    return this.slots.run('interactive', async () => {
      if (this.sent.size > 0) await new Promise<void>((resolve) => this.idle.push(resolve));
      this.stop();
    });
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
    child.on('message', (message: HostMessage) => this.received(child, dir, message));
    child.on('exit', (code, signal) => {
      forget();
      this.exited(child, code, signal);
    });
    child.once('exit', () => void rm(dir, { recursive: true, force: true }).catch(() => undefined));
    // A failed fork (no 'exit' follows) or a failed kill: without this listener an uncaught
    // exception in the gateway.
    child.on('error', (error) => {
      forget();
      try {
        if (child.pid !== undefined && child.exitCode === null) process.kill(child.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
      this.unreachable(child, error);
    });
    child.on('disconnect', forget);
    return child;
  }

  /**
   * A synthesis's samples, from the file the model process wrote them to, read at once: it was just
   * written and sits in the page cache, and an async read crossed to the thread pool four times
   * (open, stat, read, close) on the way to an answer's first byte. Removed behind the answer.
   */
  private async withSamples(reply: Reply, dir: string): Promise<Success> {
    if (reply.samples === undefined) return { ...reply, samples: undefined };
    const file = samplesFile(dir, reply.id);
    try {
      const samples = int16View(readFileSync(file));
      if (samples.length !== reply.samples) throw new Error(`${samples.length} samples where it wrote ${reply.samples}`);
      return { ...reply, samples };
    } catch (error) {
      throw new ApiError('engine_error', `The neural model process's audio could not be read: ${(error as Error).message}`);
    } finally {
      // its folder goes with the process, and the gateway clears its temp folder at start
      rm(file, { force: true }).catch(() => undefined);
    }
  }

  private send(request: Request, lane: Lane, signal?: AbortSignal): Promise<{ reply: Reply; dir: string }> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        // Not begun: the model process drops it from its queue. Begun: only killing stops it.
        if (sent.started) this.stop();
        else if (this.child === sent.child) sent.child.send({ type: 'cancel', id: sent.id } satisfies HostRequest, () => undefined);
        this.settle(sent, signal!.reason as Error);
      };
      const sent: Sent = {
        id: this.nextId++,
        request,
        lane,
        child: undefined as unknown as ChildProcess,
        dir: '',
        started: false,
        settle: (outcome) => {
          signal?.removeEventListener('abort', onAbort);
          if (outcome instanceof Error) reject(outcome);
          else resolve(outcome);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.sent.set(sent.id, sent);
      this.post(sent);
    });
  }

  /** Sends `sent` to the running process (started if there is none). */
  private post(sent: Sent): void {
    const child = (this.child ??= this.start());
    Object.assign(sent, { child, dir: this.samplesDir, started: false });
    // With a callback, a closed channel (the process gone between requests) is reported here
    // instead of as an 'error' event.
    child.send({ ...sent.request, id: sent.id, lane: sent.lane } satisfies HostRequest, (error) => {
      if (error) this.unreachable(child, error);
    });
    this.watch(child);
  }

  /**
   * (Re)starts the time limit of `child` while it has requests: from when it got one while idle
   * (its start and load count), began one, or answered one. Past it, the process is killed and the
   * request it was running fails with engine_timeout (all of them if it began none: it hangs
   * starting); those it had not begun go to a new process (exited).
   */
  private watch(child: ChildProcess): void {
    clearTimeout(this.watchdog);
    if (this.child !== child || !this.pendingOn(child).length) return;
    this.watchdog = setTimeout(() => {
      const pending = this.pendingOn(child);
      const running = pending.filter((sent) => sent.started);
      this.stop();
      const error = new ApiError('engine_timeout', `The neural model did not finish within ${this.timeoutMs / 1000} s and was stopped.`);
      for (const sent of running.length ? running : pending) this.settle(sent, error);
    }, this.timeoutMs);
  }

  private pendingOn(child: ChildProcess): Sent[] {
    return [...this.sent.values()].filter((sent) => sent.child === child);
  }

  private settle(sent: Sent, outcome: { reply: Reply; dir: string } | Error): void {
    if (this.sent.get(sent.id) !== sent) return;
    this.sent.delete(sent.id);
    sent.settle(outcome);
    if (this.sent.size === 0) for (const resolve of this.idle.splice(0)) resolve();
  }

  private received(child: ChildProcess, dir: string, message: HostMessage): void {
    const sent = this.sent.get(message.id);
    if (sent?.child !== child) {
      // A cancelled request the process had already begun: its audio is nobody's.
      if ('samples' in message && message.samples !== undefined) void rm(samplesFile(dir, message.id), { force: true });
      return;
    }
    if ('started' in message) {
      sent.started = true;
      this.begun.add(child);
    } else this.settle(sent, message.ok ? { reply: message, dir: sent.dir } : new Error(message.message));
    this.watch(child);
  }

  /**
   * The process ended: the request it was running fails with what it last printed; those it had
   * not begun go to a new process. If it began none (it died starting), they all fail: sending them
   * again would start it again for nothing.
   */
  private exited(child: ChildProcess, code: number | null, exitSignal: NodeJS.Signals | null): void {
    const mine = this.pendingOn(child);
    if (mine.length === 0) return;
    const said = this.stderr.trim().split('\n').slice(-2).join(' ');
    const error = new Error(`the model process stopped (${exitSignal ?? `exit code ${code}`})${said ? `: ${said}` : ''}`);
    const began = this.begun.has(child);
    for (const sent of mine) {
      if (sent.started || !began) this.settle(sent, error);
      else this.post(sent);
    }
  }

  /** The process could not be started or reached: its requests fail with engine_error. */
  private unreachable(child: ChildProcess, error: Error): void {
    if (this.child === child) this.stop();
    for (const sent of this.pendingOn(child))
      this.settle(sent, new ApiError('engine_error', `The neural model process failed: ${error.message}`));
  }
}
