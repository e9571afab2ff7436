/** Test support: how long a gateway keeps its other clients waiting while it works on something. */
import { readFileSync } from 'node:fs';
import { TTS_ROOT } from '../contract';
import { send } from './raw-http';

const POLL_MS = 50;

export interface Waits {
  /** The longest any concurrent request waited for its answer; one that failed counts until it failed. */
  longestMs: number;
  /** Concurrent requests that got no answer (the gateway closed the connection, or died). */
  failed: number;
  /**
   * CPU time of the gateway's main thread (its event loop) meanwhile, when its process id is
   * known (Linux): what the longest wait would be on an idle machine, at most, whatever the load.
   */
  loopCpuMs?: number;
}

/** CPU time (user and system) a process's main thread has used, from /proc (Linux; clock ticks of 10 ms). */
export function mainThreadCpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  // utime and stime are fields 14 and 15 of stat, 12 and 13 after the name
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

/**
 * Awaits `work` while a client asks GET /jobs every 50 ms, each time on a fresh connection (a
 * kept-alive one can be dropped by a gateway whose loop was held, which would hide the wait).
 */
export async function waitsDuring<T>(gateway: { port: number; apiKey: string; pid?: number }, work: Promise<T>): Promise<[T, Waits]> {
  const waits: Waits = { longestMs: 0, failed: 0 };
  const cpuBefore = gateway.pid === undefined ? 0 : mainThreadCpuMs(gateway.pid);
  let running = true;
  const polling = (async () => {
    while (running) {
      const started = performance.now();
      const request = { method: 'GET', path: `${TTS_ROOT}/jobs?limit=1`, headers: { authorization: `Bearer ${gateway.apiKey}` } };
      const ok = await send(gateway.port, request, 600_000).then(
        (answer) => answer.status === 200,
        () => false,
      );
      if (!ok) waits.failed++;
      waits.longestMs = Math.max(waits.longestMs, performance.now() - started);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  try {
    const result = await work;
    if (gateway.pid !== undefined) waits.loopCpuMs = mainThreadCpuMs(gateway.pid) - cpuBefore;
    return [result, waits];
  } finally {
    running = false;
    await polling;
  }
}
