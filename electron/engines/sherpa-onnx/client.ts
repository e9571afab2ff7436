import { fork, type ChildProcess } from 'node:child_process';
import { ApiError } from '../../contract';
import { engineEnvironment } from '../child-env';
import { ENGINE_TIMEOUT_MS } from '../engine';
import { LaneLimiter, type Lane } from '../lanes';
import { MODEL_HOST_FLAG, type HostReply, type HostRequest } from './protocol';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = WithoutId<HostRequest>;
type Success = Extract<HostReply, { ok: true }>;

export interface ModelProcessOptions {
  /** A request still running after this long kills the process (engine_timeout). Default ENGINE_TIMEOUT_MS. */
  timeoutMs?: number;
  /** The Node (or Electron-as-Node) binary that runs the bundle; default process.execPath. */
  execPath?: string;
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

  request(request: Request, lane: Lane = 'interactive', signal?: AbortSignal): Promise<Success> {
    return this.slots.run(lane, () => this.send(request, signal), signal);
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
    const child = fork(this.entry, [MODEL_HOST_FLAG], {
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

  private send(request: Request, signal?: AbortSignal): Promise<Success> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const child = (this.child ??= this.start());
    const id = this.nextId++;
    return new Promise<Success>((resolve, reject) => {
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
        finish(() => (reply.ok ? resolve(reply) : reject(new Error(reply.message))));
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
