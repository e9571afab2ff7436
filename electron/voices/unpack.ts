import { Worker } from 'node:worker_threads';
import type { ExtractRequest, ExtractResult } from './extract';

export type UnpackReply = ({ ok: true } & ExtractResult) | { ok: false; message: string };

/** Unpacks an archive in a worker thread (unpack-worker.ts); aborting terminates the thread. */
export function unpackInWorker(workerFile: string, request: ExtractRequest, signal?: AbortSignal): Promise<ExtractResult> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const worker = new Worker(workerFile, { workerData: request });
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      done();
    };
    const onAbort = () => settle(() => void worker.terminate().finally(() => reject(signal!.reason)));
    signal?.addEventListener('abort', onAbort, { once: true });
    worker.once('message', (reply: UnpackReply) =>
      settle(() => (reply.ok ? resolve({ files: reply.files, bytes: reply.bytes }) : reject(new Error(reply.message)))),
    );
    worker.once('error', (error) => settle(() => reject(error)));
    worker.once('exit', (code) => settle(() => reject(new Error(`The unpacking thread stopped (exit code ${code})`))));
  });
}
