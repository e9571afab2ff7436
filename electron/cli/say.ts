import { readFile } from 'node:fs/promises';
import {
  API,
  codePoints,
  isOutputFormat,
  OPENAI_MAX_INPUT,
  OPENAI_SPEECH_PATH,
  OPTION_RANGES,
  type OpenAIResponseFormat,
} from '../contract';
import type { AudioFormat } from '../audio/encode/formats';
import { outputFormat, saveAudio } from './audio-output';
import { numberOption, stringOption, type Command } from './command';
import type { Gateway } from './connection';
import { CommandFailure, UsageError } from './failures';
import { onInterrupt } from './interrupt';
import { downloadJobAudio, failureOf, waitForJob } from './job-audio';

/** The OpenAI route's name for each format it streams; m4a comes as WAV and is encoded here. */
const STREAMED_AS: Record<AudioFormat, OpenAIResponseFormat> = {
  wav: 'wav',
  mp3: 'mp3',
  ogg: 'opus',
  flac: 'flac',
  aac: 'aac',
  pcm: 'pcm',
  m4a: 'wav',
};

export const say: Command = {
  name: 'say',
  summary: 'speak text into an audio file',
  usage: `Usage: orator say [options] <text>...
       orator say [options] -f <file>
       echo "text" | orator say [options] -o <file>

Speaks text with the running Orator gateway. Text of up to ${OPENAI_MAX_INPUT.toLocaleString('en')} characters streams back
as it is spoken; longer text becomes a job, whose progress is shown (on a terminal) and whose
audio is downloaded when it is done. Without -o the audio goes to standard output, which must
then not be a terminal.`,
  options: {
    file: { type: 'string', short: 'f' },
    output: { type: 'string', short: 'o' },
    voice: { type: 'string', short: 'v' },
    format: { type: 'string' },
    rate: { type: 'string', short: 'r' },
    progress: { type: 'boolean' },
    'no-progress': { type: 'boolean' },
  },
  optionHelp: `  -f, --file <file>      read the text from a file ("-": standard input)
  -o, --output <file>    write the audio to this file ("-": standard output)
  -v, --voice <voice>    a voice id (see orator voices) or an OpenAI voice name (alloy, nova…);
                         default: the gateway's default voice
      --format <format>  wav, mp3, ogg (Opus), flac, m4a, aac or pcm (raw 24 kHz 16-bit);
                         default: from the output file's extension, else wav
  -r, --rate <rate>      speaking rate, ${OPTION_RANGES.rate.min} to ${OPTION_RANGES.rate.max} (default 1)
      --progress         show a job's progress bar even when standard error is no terminal
      --no-progress      never show it`,
  maxPositionals: Infinity,
  async run({ values, positionals }, connect) {
    const output = stringOption(values, 'output');
    if ((output === undefined || output === '-') && process.stdout.isTTY) {
      throw new UsageError('The audio would go to the terminal: give -o <file>, or redirect standard output.');
    }
    const format = outputFormat(stringOption(values, 'format'), output);
    const rate = numberOption(values, 'rate', OPTION_RANGES.rate.min, OPTION_RANGES.rate.max);
    const text = await textOf(positionals, stringOption(values, 'file'));
    const voice = stringOption(values, 'voice');
    const gateway = await connect();
    const showProgress = values.progress === true || (values['no-progress'] !== true && process.stderr.isTTY === true);
    if (codePoints(text) <= OPENAI_MAX_INPUT) return speakStreamed(gateway, { text, voice, rate, format, output });
    return speakAsJob(gateway, { text, voice, rate, format, output }, showProgress);
  },
};

interface Speech {
  text: string;
  voice: string | undefined;
  rate: number | undefined;
  format: AudioFormat;
  output: string | undefined;
}

/** Short text through the OpenAI-compatible route, which streams as it synthesizes. */
async function speakStreamed(gateway: Gateway, speech: Speech): Promise<void> {
  const voice = speech.voice ?? (await defaultVoice(gateway));
  const response = await gateway.fetch(OPENAI_SPEECH_PATH, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      model: 'tts-1',
      input: speech.text,
      voice,
      response_format: STREAMED_AS[speech.format],
      ...(speech.rate === undefined ? {} : { speed: speech.rate }),
    }),
  });
  if (!response.ok) throw await failureOf(response);
  await saveAudio(response, speech.format, speech.output);
}

async function speakAsJob(gateway: Gateway, speech: Speech, showProgress: boolean): Promise<void> {
  const result = await gateway.client.synthesize({
    text: speech.text,
    mode: 'job',
    // the job's own file in that format: no WAV of a whole book is left in the data dir (docs/formats.md)
    ...(isOutputFormat(speech.format) ? { format: speech.format } : {}),
    ...(speech.voice === undefined ? {} : { voice: speech.voice }),
    ...(speech.rate === undefined ? {} : { rate: speech.rate }),
  });
  if (result.kind !== 'job') throw new CommandFailure('The gateway answered a job request with audio.');
  const id = result.accepted.job_id;
  if (showProgress) process.stderr.write(`Queued job ${id} (${codePoints(speech.text).toLocaleString('en')} characters).\n`);
  const keepWaiting = onInterrupt(() =>
    process.stderr.write(`\norator: stopped waiting; job ${id} goes on in the gateway (orator job ${id} -o <file> fetches it).\n`),
  );
  try {
    await waitForJob(gateway, id, showProgress);
  } finally {
    keepWaiting();
  }
  await downloadJobAudio(gateway, id, speech.format, speech.output);
  if (showProgress && speech.output && speech.output !== '-') process.stderr.write(`Wrote ${speech.output}.\n`);
}

async function textOf(words: string[], file: string | undefined): Promise<string> {
  if (words.length > 0 && file !== undefined) throw new UsageError('Give the text as arguments or with -f, not both.');
  let text: string;
  if (words.length > 0) text = words.join(' ');
  else if (file !== undefined && file !== '-') {
    try {
      text = await readFile(file, 'utf8');
    } catch (error) {
      throw new CommandFailure(`Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  } else if (file === '-' || !process.stdin.isTTY) text = await readStdin();
  else throw new UsageError('Give the text to speak: orator say "Hello", or -f <file>, or pipe it in. See: orator say --help');
  if (!text.trim()) throw new UsageError('The text is empty.');
  return text;
}

async function readStdin(): Promise<string> {
  const pieces: Buffer[] = [];
  for await (const piece of process.stdin) pieces.push(piece as Buffer);
  return Buffer.concat(pieces).toString('utf8');
}

/** The voice a request without one gets on Orator's own routes: the first available engine's default. */
async function defaultVoice(gateway: Gateway): Promise<string> {
  const { engines } = await gateway.client.call(API.listEngines);
  const voice = engines.find((e) => e.available)?.defaultVoice;
  if (!voice) throw new CommandFailure('The gateway has no available speech engine.');
  return voice;
}
