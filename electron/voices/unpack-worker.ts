/**
 * Entry of the unpacking worker thread (built to dist/unpack-worker.mjs): an archive is decoded
 * and written synchronously here, off the gateway's event loop. One archive per thread; a
 * cancelled install terminates the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { extractArchive, type ExtractRequest } from './extract';
import type { UnpackReply } from './unpack';

let reply: UnpackReply;
try {
  reply = { ok: true, ...extractArchive(workerData as ExtractRequest) };
} catch (error) {
  reply = { ok: false, message: (error as Error).message };
}
parentPort!.postMessage(reply);
