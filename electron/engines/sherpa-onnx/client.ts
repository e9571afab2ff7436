import { fork, type ChildProcess } from 'node:child_process';
import { ApiError } from '../../contract';
import { TOOL_TIMEOUT_MS } from '../cli';
import { MODEL_HOST_FLAG, type HostReply, type HostRequest } from './protocol';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;
type Request = WithoutId<HostRequest>;
type Success = Extract<HostReply, { ok: true }>;

/**
 * The parent's side of the model process: one request at a time, the process started on
 * demand and started again after it dies. A request that takes too long kills it
 * (engine_timeout); a request it dies on fails with what it last printed.
 */
export class ModelProcess {
  private child: ChildProcess | undefined;
  private stderr = '';
  private nextId = 1;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    /** The built worker bundle, which serves models when given MODEL_HOST_FLAG. */
    private readonly entry: string,
    private readonly timeoutMs = TOOL_TIMEOUT_MS,
  ) {}

  request(request: Request, signal?: AbortSignal): Promise<Success> {
    const run = this.tail.then(() => this.send(request, signal));
    this.tail = run.catch(() => {});
    return run;
  }

  /** Ends the process; the next request starts a new one. */
  stop(): void {
    this.child?.kill('SIGKILL');
    this.child = undefined;
  }

  private start(): ChildProcess {
    this.stderr = '';
    const child = fork(this.entry, [MODEL_HOST_FLAG], { serialization: 'advanced', stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
      this.stderr = (this.stderr + chunk).slice(-2000);
    });
    // An idle model process must not keep Orator running.
    child.unref();
    child.channel?.unref();
    child.on('exit', () => {
      if (this.child === child) this.child = undefined;
    });
    return child;
  }

  private send(request: Request, signal?: AbortSignal): Promise<Success> {
    if (signal?.aborted) return Promise.reject(signal.reason);
    const child = (this.child ??= this.start());
    const id = this.nextId++;
    return new Promise<Success>((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        child.off('message', onMessage);
        child.off('exit', onExit);
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
      const onAbort = () => {
        this.stop();
        finish(() => reject(signal!.reason));
      };
      const timer = setTimeout(() => {
        this.stop();
        finish(() => reject(new ApiError('engine_timeout', `The neural model did not finish within ${this.timeoutMs / 1000} s and was stopped.`)));
      }, this.timeoutMs);
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('message', onMessage);
      child.on('exit', onExit);
      child.send({ ...request, id } satisfies HostRequest);
    });
  }
}
