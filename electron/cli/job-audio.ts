/** Following a job until it ends, and downloading its audio: `orator say` of long text, `orator job -o`. */
import { API, jobAudioPath, type Job } from '../contract';
import type { AudioFormat } from '../audio/encode/formats';
import { saveAudio } from './audio-output';
import type { Gateway } from './connection';
import { CommandFailure } from './failures';
import { ProgressBar } from './progress';

const POLL_MS = 500;

/** Polls the job, drawing its progress, until it is done; a failed job is a CommandFailure. */
export async function waitForJob(gateway: Gateway, jobId: string, showProgress: boolean): Promise<Job> {
  const bar = new ProgressBar(process.stderr, showProgress, `Job ${jobId.slice(0, 8)}`);
  try {
    for (;;) {
      const job = await gateway.client.call(API.getJob, { params: { id: jobId } });
      bar.update(job.progress.done, job.progress.total);
      if (job.status === 'done') return job;
      if (job.status === 'failed') throw new CommandFailure(`Job ${jobId} failed: ${job.error?.message ?? 'no reason given'}`);
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  } finally {
    bar.end();
  }
}

/**
 * Downloads a finished job's audio in `format`. A gateway that cannot encode it on that route
 * sends WAV (or refuses the format), which is then encoded here.
 */
export async function downloadJobAudio(gateway: Gateway, jobId: string, format: AudioFormat, output: string | undefined): Promise<void> {
  let response = await gateway.fetch(format === 'wav' ? jobAudioPath(jobId) : `${jobAudioPath(jobId)}?format=${format}`);
  if (response.status === 400 && format !== 'wav') response = await gateway.fetch(jobAudioPath(jobId));
  if (!response.ok) throw await failureOf(response);
  await saveAudio(response, format, output);
}

/**
 * An error answer, in Orator's or OpenAI's shape (both say `error.message`), as a CommandFailure;
 * a voice the gateway does not know gets the command that lists its voices.
 */
export async function failureOf(response: Response): Promise<CommandFailure> {
  const body = (await response.json().catch(() => null)) as { error?: { message?: unknown; code?: unknown; param?: unknown } } | null;
  const message = typeof body?.error?.message === 'string' ? body.error.message : `The gateway answered ${response.status}.`;
  const aboutVoice = body?.error?.code === 'unknown_voice' || body?.error?.param === 'voice';
  return new CommandFailure(aboutVoice ? `${message} (orator voices lists them.)` : message);
}
