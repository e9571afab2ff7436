import { setTimeout as sleep } from 'node:timers/promises';
import { API, ApiError, ATTEMPT_HEADER, chunkUploadPath, type ChunkReceipt, type ErrorBody, type WorkerCheck } from '../contract';
import { OratorClient } from '../client';
import type { Pcm } from '../audio/pcm';
import { encodeWav } from '../audio/wav';

/** What became of a chunk sent: saved (or already saved), or its job is gone and the chunk not needed. */
export type UploadResult = ChunkReceipt['status'] | 'gone';

/** Waits between tries while the gateway cannot take a chunk (restarting, unreachable): doubling up to this. */
const MAX_RETRY_DELAY_MS = 10_000;

/** Answers that pass by themselves: the host keeps the chunk and asks again. */
const TRANSIENT = new Set([408, 409, 429, 500, 502, 503, 504]);

/** The gateway as a worker host sees it: its internal routes, with the worker token. */
export class GatewayClient {
  private readonly client: OratorClient;

  constructor(
    private readonly gateway: string,
    private readonly token: string,
  ) {
    this.client = new OratorClient({ baseUrl: gateway, apiKey: token });
  }

  /** Throws unless the gateway answers and takes the token: a host with a wrong one takes no chunks. */
  async check(): Promise<WorkerCheck> {
    try {
      return await this.client.call(API.checkWorker);
    } catch (error) {
      const reason = error instanceof ApiError ? `${error.code}: ${error.message}` : (error as Error).message;
      throw new Error(`The gateway at ${this.gateway} refused the worker token: ${reason}`, { cause: error });
    }
  }

  /**
   * Sends a chunk's audio; while the gateway is down or busy, keeps it and tries again (the chunk's
   * lock is renewed meanwhile, so no other host takes it). A refusal that will not pass (a bad
   * token, audio the gateway cannot read) throws, and BullMQ retries the chunk.
   */
  async upload(jobId: string, idx: number, pcm: Pcm, attempt: number, signal: AbortSignal): Promise<UploadResult> {
    const body = new Uint8Array(encodeWav(pcm));
    const init = {
      method: 'PUT',
      headers: { ...this.headers(), 'content-type': 'audio/wav', [ATTEMPT_HEADER]: String(attempt) },
      body,
      signal,
    };
    for (let delay = 250; ; delay = Math.min(2 * delay, MAX_RETRY_DELAY_MS)) {
      let problem: string;
      try {
        const response = await fetch(this.gateway + chunkUploadPath(jobId, idx), init);
        if (response.ok) return ((await response.json()) as ChunkReceipt).status;
        if (response.status === 410) return 'gone';
        problem = await errorOf(response);
        if (!TRANSIENT.has(response.status)) throw new Error(problem);
      } catch (error) {
        if (signal.aborted || !isNetworkError(error)) throw error;
        problem = (error as Error).message;
      }
      if (delay === MAX_RETRY_DELAY_MS)
        console.warn(`Orator worker: the gateway cannot take chunk ${idx} of job ${jobId} yet (${problem}); trying again.`);
      await sleep(delay, undefined, { signal });
    }
  }

  private headers() {
    return { authorization: `Bearer ${this.token}` };
  }
}

async function errorOf(response: Response): Promise<string> {
  const body = (await response.json().catch(() => undefined)) as ErrorBody | undefined;
  return body?.error ? `${body.error.code}: ${body.error.message}` : `HTTP ${response.status}`;
}

/** fetch() rejects with a TypeError when it never got an answer (refused, reset, DNS). */
function isNetworkError(error: unknown): boolean {
  return error instanceof TypeError;
}
