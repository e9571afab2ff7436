import { API } from '../contract';
import type { Job, JobStatus } from '../contract';
import { outputFormat } from './audio-output';
import { numberOption, stringOption, type Command } from './command';
import { UsageError } from './failures';
import { downloadJobAudio, waitForJob } from './job-audio';
import { printJson, printTable } from './table';

const STATUSES: readonly JobStatus[] = ['running', 'done', 'failed'];

export const jobs: Command = {
  name: 'jobs',
  summary: 'list the jobs, newest first',
  usage: `Usage: orator jobs [--status running|done|failed] [--limit <n>] [--json]

Lists the gateway's jobs, newest first.`,
  options: {
    status: { type: 'string', short: 's' },
    limit: { type: 'string', short: 'n' },
    json: { type: 'boolean' },
  },
  optionHelp: `  -s, --status <status>  only running, done or failed jobs
  -n, --limit <n>        at most this many, 1 to 200 (default 50)
      --json             the jobs as JSON, for scripts`,
  maxPositionals: 0,
  async run({ values }, connect) {
    const status = stringOption(values, 'status');
    if (status !== undefined && !(STATUSES as readonly string[]).includes(status)) {
      throw new UsageError(`--status must be one of ${STATUSES.join(', ')}, not "${status}".`);
    }
    const limit = numberOption(values, 'limit', 1, 200);
    if (limit !== undefined && !Number.isInteger(limit)) throw new UsageError(`--limit must be a whole number, not "${limit}".`);
    const { client } = await connect();
    const list = await client.call(API.listJobs, {
      query: { ...(status === undefined ? {} : { status: status as JobStatus }), ...(limit === undefined ? {} : { limit }) },
    });
    if (values.json) return printJson(list.jobs);
    if (list.jobs.length === 0) return void process.stderr.write('No jobs.\n');
    printTable(
      ['JOB', 'STATUS', 'PROGRESS', 'CHARACTERS', 'CREATED', 'TITLE'],
      list.jobs.map((j) => [
        j.job_id,
        j.status,
        `${j.progress.done}/${j.progress.total}`,
        String(j.characters),
        localTime(j.created_at),
        j.title,
      ]),
    );
  },
};

export const job: Command = {
  name: 'job',
  summary: 'show one job; -o downloads its audio',
  usage: `Usage: orator job <id> [--json]
       orator job <id> -o <file> [--format <format>]

Shows a job. With -o it waits for the job to finish (with a progress bar on a terminal) and
downloads its audio, in the format of the file's extension or --format.`,
  options: {
    json: { type: 'boolean' },
    output: { type: 'string', short: 'o' },
    format: { type: 'string' },
    progress: { type: 'boolean' },
    'no-progress': { type: 'boolean' },
  },
  optionHelp: `      --json             the job as JSON, for scripts
  -o, --output <file>    wait for the job, then write its audio here ("-": standard output)
      --format <format>  wav, mp3, ogg (Opus), flac, m4a, aac or pcm; default: from the
                         file's extension
      --progress         show the progress bar even when standard error is no terminal
      --no-progress      never show it`,
  maxPositionals: 1,
  async run({ values, positionals }, connect) {
    const id = positionals[0];
    if (id === undefined) throw new UsageError('Name the job: orator job <id> (orator jobs lists them).');
    const output = stringOption(values, 'output');
    if (output === undefined) {
      const { client } = await connect();
      const found = await client.call(API.getJob, { params: { id: id } });
      return values.json ? printJson(found) : describe(found);
    }
    if (output === '-' && process.stdout.isTTY)
      throw new UsageError('The audio would go to the terminal: give -o <file>, or redirect standard output.');
    const format = outputFormat(stringOption(values, 'format'), output);
    const gateway = await connect();
    const showProgress = values.progress === true || (values['no-progress'] !== true && process.stderr.isTTY === true);
    await waitForJob(gateway, id, showProgress);
    await downloadJobAudio(gateway, id, format, output);
  },
};

function describe(j: Job): void {
  const lines: [string, string | undefined][] = [
    ['job', j.job_id],
    ['title', j.title],
    ['status', j.status],
    ['progress', `${j.progress.done}/${j.progress.total} chunks`],
    ['voice', j.voice],
    ['characters', String(j.characters)],
    ['created', localTime(j.created_at)],
    ['finished', j.finished_at && localTime(j.finished_at)],
    ['expires', j.expires_at && localTime(j.expires_at)],
    ['audio', j.audio && `${j.audio.duration_s.toFixed(1)} s, ${j.audio.bytes} bytes (orator job ${j.job_id} -o <file>)`],
    ['error', j.error && `${j.error.code}: ${j.error.message}`],
    ['audio gone', j.audio_unavailable && `${j.audio_unavailable.code}: ${j.audio_unavailable.message}`],
  ];
  for (const [name, value] of lines) if (value !== undefined) process.stdout.write(`${`${name}:`.padEnd(12)}${value}\n`);
}

/** Local time to the second, as "2026-11-23 07:30:12". */
function localTime(iso: string): string {
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
}
