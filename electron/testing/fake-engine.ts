/**
 * A test double at the engine edge, for unit tests of the job runner and the services: an
 * EngineAdapter that runs no program and loads no model. Its audio is a flat level that spells
 * the text (levelOf), one block of samples per character, so a test can read back which chunk
 * landed where in an assembled WAV. Real engines are exercised by the integration tests
 * (engines.integration.test.ts, the gateway tests) and the sherpa-onnx end-to-end test.
 */
import type { Pcm } from '../audio/pcm';
import type { Capabilities } from '../contract';
import type { EngineAdapter, Probe, SynthesisContext, SynthesisRequest } from '../engines/engine';

export const FAKE_SAMPLE_RATE = 8000;
/** Samples of audio per character of text. */
export const SAMPLES_PER_CHAR = 80;

/** What the engine does for one call: speak, fail with an error, or hang until aborted. */
export type FakeBehaviour = 'speak' | Error | 'hang';

export interface FakeCall {
  request: SynthesisRequest;
  context: SynthesisContext;
}

/** The sample level the fake engine speaks `text` at: distinct per text, never silence. */
export function levelOf(text: string): number {
  let hash = 7;
  for (const char of text) hash = (hash * 31 + char.codePointAt(0)!) % 20_000;
  return 1000 + hash;
}

export class FakeEngine implements EngineAdapter {
  readonly id: string;
  readonly name = 'Fake engine (test double)';
  readonly kind = 'embedded' as const;
  readonly capabilities: Capabilities = { rate: false, pitch: false, volume: false };
  readonly calls: FakeCall[] = [];
  /** Decides each call; the nth call of a text is `attempt` n. Speaks by default. */
  behaviour: (request: SynthesisRequest, attempt: number) => FakeBehaviour = () => 'speak';
  sampleRate = FAKE_SAMPLE_RATE;

  constructor(id = 'fake') {
    this.id = id;
  }

  get voiceId(): string {
    return `${this.id}:plain`;
  }

  probe(): Promise<Probe> {
    const voice = { id: this.voiceId, name: 'Plain', language: 'en', sampleRate: this.sampleRate };
    return Promise.resolve({ available: true, voices: [voice], defaultVoice: voice.id });
  }

  /** Calls made with `text`. */
  callsOf(text: string): FakeCall[] {
    return this.calls.filter((call) => call.request.text === text);
  }

  async synthesize(request: SynthesisRequest, context: SynthesisContext): Promise<Pcm> {
    this.calls.push({ request, context });
    const behaviour = this.behaviour(request, this.callsOf(request.text).length);
    if (behaviour instanceof Error) throw behaviour;
    if (behaviour === 'hang') await untilAborted(context.signal);
    // one turn of the event loop, as a real engine's answer takes
    await new Promise((resolve) => setImmediate(resolve));
    const samples = new Int16Array([...request.text].length * SAMPLES_PER_CHAR).fill(levelOf(request.text));
    return { sampleRate: this.sampleRate, samples };
  }
}

function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_resolve, reject) => {
    if (!signal) return; // never settles: the test is about a call that is never stopped
    const abort = () => reject(new Error('aborted'));
    if (signal.aborted) abort();
    else signal.addEventListener('abort', abort, { once: true });
  });
}
