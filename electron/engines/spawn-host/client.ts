import { fork, type ChildProcess } from 'node:child_process';
import { ApiError, type ErrorCode } from '../../contract';
import { engineEnvironment } from '../child-env';
import type { ToolOptions, ToolOutput } from '../cli';
import type { HostReply, HostRequest } from './protocol';

interface Pending {
  resolve(output: ToolOutput): void;
  reject(error: unknown): void;
}

/**
 * Runs engine programs through the spawn host (host.ts), forked when first needed and again after
 * it died. `run` has runToolRaw's contract: an abort kills the program and rejects with the
 * signal's reason, a timeout rejects with engine_timeout.
 */
export class SpawnHost {
  private child: ChildProcess | null = null;
  private nextId = 0;
  private readonly pending = new Map<number, Pending>();

  constructor(
    /** The built host (dist/spawn-host.mjs). */
    private readonly entry: string,
    /** The Node (or Electron-as-Node) binary that runs it; default process.execPath. */
    private readonly execPath?: string,
  ) {}

  readonly run = (executable: string, args: string[], options: ToolOptions = {}): Promise<ToolOutput> => {
    const { signal, ...rest } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const id = this.nextId++;
    const child = this.host();
    return new Promise<ToolOutput>((resolve, reject) => {
      const onAbort = () => {
        this.send({ kind: 'kill', id });
        reject(signal!.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const settle = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        resolve: (output) => (settle(), resolve(output)),
        reject: (error) => (settle(), reject(error)),
      });
      this.send({ kind: 'run', id, executable, args, options: rest }, child);
    });
  };

  /** Stops the host; what it was running fails (the programs are killed with it only if they honour SIGTERM). */
  close(): void {
    const child = this.child;
    if (!child) return;
    this.lost(child, new Error('The engine spawn host was closed'));
    child.kill();
  }

  private host(): ChildProcess {
    if (this.child) return this.child;
    const child = fork(this.entry, [], {
      env: engineEnvironment(),
      serialization: 'advanced', // audio on stdout crosses as bytes, not as JSON arrays
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      ...(this.execPath ? { execPath: this.execPath } : {}),
    });
    child.on('message', (reply: HostReply) => this.settle(reply));
    // a failed fork or a host that died: what it was running fails, the next run forks a new one
    child.on('error', (error) => this.lost(child, error));
    child.on('exit', (code, signal) => this.lost(child, new Error(`The engine spawn host exited (${code ?? signal})`)));
    // it must not keep the gateway alive; its channel is counted while runs are pending
    child.unref();
    child.channel?.unref();
    this.child = child;
    return child;
  }

  private send(message: HostRequest, child = this.child): void {
    if (!child?.connected) return;
    if (message.kind === 'run' && this.pending.size === 1) child.channel?.ref();
    child.send(message);
  }

  private settle(reply: HostReply): void {
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    this.pending.delete(reply.id);
    if (this.pending.size === 0) this.child?.channel?.unref();
    if ('error' in reply) {
      const { code, message } = reply.error;
      pending.reject(code ? new ApiError(code as ErrorCode, message) : new Error(message));
    } else {
      pending.resolve({ stdout: Buffer.from(reply.stdout.buffer, reply.stdout.byteOffset, reply.stdout.byteLength), stderr: reply.stderr });
    }
  }

  private lost(child: ChildProcess, error: Error): void {
    if (this.child !== child) return;
    this.child = null;
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
