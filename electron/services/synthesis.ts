import {
  ApiError,
  codePoints,
  OPTION_RANGES,
  outputChoice,
  type Job,
  type OutputChoice,
  type OutputFormat,
  type InlineSentence,
  type PreviewBody,
  type SynthesizeBody,
  STREAM_MAX_CHARS,
} from '../contract';
import { encodeWhole } from '../audio/encode/encoder';
import { measureLoudness } from '../audio/loudness';
import { durationSeconds } from '../audio/wav';
import type { Pcm } from '../audio/pcm';
import type { Prosody, ResolvedVoice } from '../engines/registry';
import { titleOf } from '../jobs/chunker';
import type { JobRunner } from '../jobs/runner';
import type { JobSeries } from '../jobs/rows';
import { unchanged, type Rewrite, type SpeakingVoice, type Spoken } from '../lexicon/rewrite';
import { toJobView } from '../jobs/view';
import { ssmlJobChunks } from '../ssml/job-chunks';
import { planSsml, planText, type PlannedSegment } from '../ssml/plan';
import { synthesizePlan } from '../ssml/synthesize';
import { inlineTimings } from './inline-timings';
import { sampleSentence } from './sample-sentences';
import { openSpeechStream, type SpeechStream } from './speech-stream';
import type { Voices } from './voices';

/** What rewrites text as a voice should read it (LexiconService). */
export interface Pronouncer {
  pronounce(text: string, voice: SpeakingVoice): Spoken;
}

/**
 * Text as `resolved` should read it, after the lexicon; without one, as written. Limits are
 * counted on the text as sent, before this.
 */
export function spokenBy(lexicon: Pronouncer | undefined, resolved: ResolvedVoice): Rewrite {
  if (!lexicon) return unchanged;
  const { voice, adapter } = resolved;
  const speaking: SpeakingVoice = { voiceId: voice.id, language: voice.language, phonemeAlphabet: adapter.phonemeAlphabet };
  return (text) => lexicon.pronounce(text, speaking);
}

export interface SynthesisLimits {
  /** Longest text (code points) answered inline; longer text becomes a job. */
  inlineThreshold: number;
  /** Longest text (code points) accepted at all. */
  maxTextLength: number;
  /** Longest preview text (code points). */
  previewMaxChars: number;
}

export interface InlineAudio {
  kind: 'inline';
  /** The whole file, in `format`. */
  audio: Buffer;
  format: OutputFormat;
  engine: string;
  voice: string;
  durationS: number;
  /** Each sentence of the text in the audio; null when they could not be placed. */
  timings: InlineSentence[] | null;
  /** Integrated loudness (BS.1770) of the PCM; null for silence (no block above the gates). */
  loudnessLufs: number | null;
}

export type SynthesisResult = InlineAudio | { kind: 'job'; job: Job };

/** Synthesis as the product offers it, whatever the transport: inline audio or a queued job. */
export class SynthesisService {
  constructor(
    /** Every voice name a request may give (voices.ts): ids, engines' own names, OpenAI's names. */
    private readonly voices: Voices,
    private readonly runner: JobRunner,
    /** Asked at each request: settings change the limits while the gateway runs. */
    private readonly limits: () => SynthesisLimits,
    /** When the audio of a job created now expires (see JobService.expiryOfNewJob). */
    private readonly expiryOfNewJob: () => string | null,
    /** Applied to every text before synthesis, inline and in jobs; none: text is spoken as written. */
    private readonly lexicon?: Pronouncer,
  ) {}

  /** `series`: a job's place in a series (a project's chapter, docs/projects.md); no API client gives one. */
  async synthesize(body: SynthesizeBody, series: JobSeries | null = null): Promise<SynthesisResult> {
    const text = withoutControls(body.text);
    const length = codePoints(text);
    const { maxTextLength, inlineThreshold } = this.limits();
    if (length > maxTextLength) {
      throw new ApiError('text_too_long', `text has ${length} characters; the maximum is ${maxTextLength}.`);
    }
    const resolved = this.voices.resolve(body);
    const options = prosody(body);
    const output = outputChoice(body);
    const asJob = body.mode === 'job' || length > inlineThreshold;
    if (body.text_type === 'ssml') {
      const plan = this.plan(text, resolved, options);
      if (!asJob) return this.answer(resolved, await synthesizePlan(plan, this.spokenFor, { lane: 'interactive' }), output);
      const job = { title: titleOf(planText(plan)), characters: length, ...options, expiresAt: this.expiryOfNewJob() };
      const row = await this.runner.enqueueChunks(resolved, ssmlJobChunks(plan, this.spokenFor), {
        ...job,
        output: { ...output, keepWav: body.keep_wav ?? false },
        sampleRate: jobSampleRate(plan),
        series,
      });
      return { kind: 'job', job: toJobView(row) };
    }
    if (asJob) {
      const spoken = spokenBy(this.lexicon, resolved);
      const job = await this.runner.enqueue(
        resolved,
        text,
        options,
        this.expiryOfNewJob(),
        { ...output, keepWav: body.keep_wav ?? false },
        spoken,
        series,
      );
      return { kind: 'job', job: toJobView(job) };
    }
    return this.inline(resolved, text, options, output);
  }

  /**
   * Inline audio streamed as it is synthesized (`"stream": true`), sentence by sentence in the
   * interactive lane; `signal` is the listener leaving, which stops the synthesis.
   */
  async stream(body: SynthesizeBody, signal: AbortSignal): Promise<SpeechStream> {
    if (body.mode === 'job') {
      throw new ApiError('invalid_request', '"stream" is for inline answers; a job is not streamed (download its audio when it is done).');
    }
    const text = withoutControls(body.text);
    const length = codePoints(text);
    const { maxTextLength, inlineThreshold } = this.limits();
    const most = Math.min(maxTextLength, Math.max(inlineThreshold, STREAM_MAX_CHARS));
    if (length > most) {
      throw new ApiError(
        'text_too_long',
        `text has ${length} characters; a streamed answer takes at most ${most} (send it without "stream" for a job).`,
      );
    }
    const resolved = this.voices.resolve(body);
    const output = outputChoice(body);
    const options = prosody(body);
    return openSpeechStream({
      voice: resolved,
      text,
      prosody: options,
      format: output.format,
      bitrateKbps: output.bitrateKbps,
      signal,
      spoken: spokenBy(this.lexicon, resolved),
      ...(body.text_type === 'ssml' ? { plan: { segments: this.plan(text, resolved, options), spokenFor: this.spokenFor } } : {}),
    });
  }

  async preview(body: PreviewBody): Promise<InlineAudio> {
    const resolved = this.voices.resolve(body);
    const output = outputChoice(body);
    const text = body.text === undefined ? sampleSentence(resolved.voice.language) : withoutControls(body.text);
    const length = codePoints(text);
    const { previewMaxChars } = this.limits();
    if (length > previewMaxChars) {
      throw new ApiError('text_too_long', `Preview text has ${length} characters; the maximum is ${previewMaxChars}.`);
    }
    if (body.text_type === 'ssml' && body.text !== undefined) {
      const plan = this.plan(text, resolved, prosody(body));
      return this.answer(resolved, await synthesizePlan(plan, this.spokenFor, { lane: 'interactive' }), output);
    }
    return this.inline(resolved, text, prosody(body), output);
  }

  /** The lexicon of each voice of an SSML text. */
  private readonly spokenFor = (voice: ResolvedVoice) => spokenBy(this.lexicon, voice);

  /** An SSML text's segments (docs/ssml.md); its `<voice>` names resolved like `voice`. */
  private plan(markup: string, resolved: ResolvedVoice, options: Prosody): PlannedSegment[] {
    return planSsml(markup, resolved, options, (voice) => this.voices.resolve({ voice }));
  }

  private async inline(resolved: ResolvedVoice, text: string, options: Prosody, output: OutputChoice): Promise<InlineAudio> {
    const spoken = spokenBy(this.lexicon, resolved);
    const pcm = await resolved.synthesize({ text: spoken(text).text, ...options }, { lane: 'interactive' });
    return this.answer(resolved, pcm, output, inlineTimings(text, resolved.voice.language, pcm, spoken));
  }

  /** `timings`: none for SSML, whose text is markup. */
  private async answer(
    resolved: ResolvedVoice,
    pcm: Pcm,
    output: OutputChoice,
    timings: InlineSentence[] | null = null,
  ): Promise<InlineAudio> {
    return {
      kind: 'inline',
      audio: await encodeWhole(output.format, pcm, output.bitrateKbps),
      format: output.format,
      engine: resolved.adapter.id,
      voice: resolved.voice.id,
      durationS: durationSeconds(pcm.sampleRate, pcm.samples.byteLength),
      timings,
      loudnessLufs: loudnessOrNull(pcm),
    };
  }
}

/** For fair listening (the studio's compare matches takes by it); about 20 ms a minute of speech. */
function loudnessOrNull(pcm: Pcm): number | null {
  const lufs = measureLoudness(pcm.samples, pcm.sampleRate).integratedLufs;
  return Number.isFinite(lufs) ? lufs : null;
}

/** A job of several voices is at the highest of their rates from the start (docs/ssml.md); one voice: its first chunk's. */
function jobSampleRate(plan: readonly PlannedSegment[]): number | null {
  if (new Set(plan.map((segment) => segment.voice.voice.id)).size < 2) return null;
  return Math.max(...plan.map((segment) => segment.voice.voice.sampleRate));
}

/**
 * Control characters (C0 but tab and line breaks, DEL, C1) carry nothing to speak and upset
 * engines (a NUL makes Festival write no WAV; ESC is a keystroke to a program reading stdin), so
 * no engine ever sees them: each becomes a space, keeping lengths and positions.
 */
const CONTROLS = /(?![\t\n\r])\p{Cc}/gu;
export const withoutControls = (text: string) => text.replace(CONTROLS, ' ');

function prosody(body: { rate?: number | undefined; pitch?: number | undefined; volume?: number | undefined }): Prosody {
  return {
    rate: body.rate ?? OPTION_RANGES.rate.default,
    pitch: body.pitch ?? OPTION_RANGES.pitch.default,
    volume: body.volume ?? OPTION_RANGES.volume.default,
  };
}
