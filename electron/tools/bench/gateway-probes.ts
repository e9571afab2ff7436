/** What the bench measures on a gateway running as its own process: jobs, inline latency, memory, time to the player. */
import { readFileSync } from 'node:fs';
import type { GatewayProcess } from '../../testing/process';

const JOB_TIMEOUT_MS = 1_800_000;

export const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor((p / 100) * values.length))]!;

const json = { 'content-type': 'application/json' };

export async function queueJob(gateway: GatewayProcess, text: string, voice?: string): Promise<string> {
  const response = await gateway.api('/api/v1/tts/synthesize', {
    method: 'POST',
    headers: json,
    body: JSON.stringify({ text, mode: 'job', ...(voice ? { voice } : {}) }),
  });
  if (response.status !== 202) throw new Error(`The bench job was refused: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { job_id: string }).job_id;
}

export async function jobStatus(gateway: GatewayProcess, id: string): Promise<string> {
  return ((await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as { status: string }).status;
}

/** Resolves once the job is done (polled every 25 ms); throws if it failed or overran. */
export async function jobDone(gateway: GatewayProcess, id: string): Promise<void> {
  const started = performance.now();
  for (;;) {
    const status = await jobStatus(gateway, id);
    if (status === 'done') return;
    if (status !== 'running') throw new Error(`The bench job ended ${status}`);
    if (performance.now() - started > JOB_TIMEOUT_MS) throw new Error('The bench job overran its time limit');
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** A job from its submission to its being done, in milliseconds. */
export async function timedJob(gateway: GatewayProcess, text: string, voice?: string): Promise<{ ms: number; id: string }> {
  const started = performance.now();
  const id = await queueJob(gateway, text, voice);
  await jobDone(gateway, id);
  return { ms: performance.now() - started, id };
}

/** One inline request of `text` (the default voice), answer read whole; milliseconds. */
export async function inlineMs(gateway: GatewayProcess, text: string): Promise<number> {
  const started = performance.now();
  const response = await gateway.api('/api/v1/tts/synthesize', { method: 'POST', headers: json, body: JSON.stringify({ text }) });
  await response.arrayBuffer();
  if (response.status !== 200) throw new Error(`Inline synthesis answered ${response.status}`);
  return performance.now() - started;
}

/** A number from /proc/<pid>/status (Linux): `VmRSS` in kB, `Threads`; 0 where the field is absent. */
function statusField(pid: number, name: string): number {
  return Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
}

/** Samples a process's resident set (VmRSS, Linux) every 100 ms; `peak()` is the highest sample so far. */
export class RssSampler {
  private max = 0;
  private readonly timer: NodeJS.Timeout;

  constructor(private readonly pid: number) {
    this.timer = setInterval(() => this.sample(), 100);
    this.sample();
  }

  static bytes(pid: number): number {
    return statusField(pid, 'VmRSS') * 1024;
  }

  /** The kernel's own peak of the process's resident set (VmHWM); it is updated lazily, and may trail the highest sample. */
  static kernelPeak(pid: number): number {
    return statusField(pid, 'VmHWM') * 1024;
  }

  /**
   * The resident set once start-up is over: when the process's thread count has not changed for
   * 3 s (the voice-listing thread exits 2 s after its last listing, which takes longer on a busy
   * machine than any fixed wait), at most 20 s after the call.
   */
  static async settled(pid: number): Promise<number> {
    const deadline = performance.now() + 20_000;
    let count = statusField(pid, 'Threads');
    let since = performance.now();
    while (performance.now() - since < 3_000 && performance.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      const now = statusField(pid, 'Threads');
      if (now !== count) [count, since] = [now, performance.now()];
    }
    return RssSampler.bytes(pid);
  }

  sample(): number {
    const now = RssSampler.bytes(this.pid);
    this.max = Math.max(this.max, now);
    return now;
  }

  /** Starts a new window: the peak from now on. */
  reset(): void {
    this.max = 0;
    this.sample();
  }

  peak(): number {
    return this.max;
  }

  stop(): void {
    clearInterval(this.timer);
  }
}

export interface TimeToPlayer {
  /** What the player needs before it can draw the waveform: asked for and parsed. */
  peaksMs: number;
  peaksBytes: number;
  /** The first `seconds` of audio, by a Range request, after the peaks (as the player asks). */
  audioMs: number;
  totalMs: number;
}

/**
 * What the studio player fetches to open a finished job: its peaks (the coarsest level that fills
 * `columns`: twice a 2,000-pixel waveform, as the player asks), then the first seconds of its audio.
 */
export async function timeToPlayer(gateway: GatewayProcess, id: string, columns = 4000, seconds = 5): Promise<TimeToPlayer> {
  const started = performance.now();
  const peaks = await gateway.api(`/api/v1/tts/jobs/${id}/peaks?columns=${columns}`);
  const body = await peaks.arrayBuffer();
  if (!peaks.ok) throw new Error(`Peaks answered ${peaks.status}`);
  JSON.parse(Buffer.from(body).toString('utf8'));
  const peaksMs = performance.now() - started;
  const bytesPerSecond = 22050 * 2;
  const audio = await gateway.api(`/api/v1/tts/jobs/${id}/audio`, { headers: { range: `bytes=0-${44 + seconds * bytesPerSecond - 1}` } });
  await audio.arrayBuffer();
  if (audio.status !== 206) throw new Error(`Audio range answered ${audio.status}`);
  const totalMs = performance.now() - started;
  return { peaksMs, peaksBytes: body.byteLength, audioMs: totalMs - peaksMs, totalMs };
}
