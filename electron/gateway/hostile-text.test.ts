/**
 * Hostile text on every installed engine: emoji, punctuation or symbols only, invisible and
 * right-to-left marks, control characters, lone surrogates, mixed scripts. Decision (docs/api.md):
 * text that has a character which is neither whitespace nor a control character is spoken, and an
 * engine with nothing to say for it gives a well-formed WAV of silence (some wrote no file, or
 * threw, and answered 502); text of whitespace and control characters only is 400 invalid_request.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jobPath, OPENAI_SPEECH_PATH, TTS_ROOT } from '../contract';
import { apiRoutes, type ApiRoute } from '../testing/api-routes';
import { expectSpeech } from '../testing/audio';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { outcomeOf } from '../testing/judge-answer';
import { parseWav, WAV_HEADER_BYTES, wavHeader } from '../audio/wav';
import { SLOT_LIMITS } from './slots';

const MAX_SPEECH_STREAMS = SLOT_LIMITS.encoders.perKey;

interface HostileText {
  name: string;
  text: string;
  /** The text has English words: its audio must be audible. */
  words?: true;
}
/** What engines may have nothing to say for, each alone, and one text of words among hostile characters. */
const ON_EVERY_ENGINE: HostileText[] = [
  { name: 'emoji only', text: '😀👍🏽' },
  { name: 'punctuation only', text: '?!... * * * ---' },
  { name: 'symbols only', text: '€ ∑ ^ | «»' },
  { name: 'zero-width and direction marks only', text: '\u200b\u200c\u200d\u2060\ufeff\u200f\u202e\u00ad' },
  { name: 'lone surrogates', text: '\ud800 \udfff \udbff' },
  { name: 'Hebrew, right to left', text: 'שלום' },
  { name: 'words among NUL, ESC, RTL marks', text: 'hello\u0000world \u001b:!echo\r\u0085 \u202eHi\u202c 中 Ω', words: true },
];
/** More, for the default engine on every route that takes text. */
const ON_THE_DEFAULT_ENGINE: HostileText[] = [
  { name: 'stacked combining marks', text: 'a\u0301\u0302\u0303\u0304\u0305\u0306' },
  { name: 'control characters around words', text: '\u0007\u001b:!echo hi\r\u007f\u0085 you\u0008', words: true },
  { name: 'NUL inside words', text: 'hello\u0000world', words: true },
];
const CONTROL_ONLY = ['\u0000', '\u0001\u0007\u001b', ' \u0000\t\u007f\u0085 '];

let gateway: TestGateway;
let textRoutes: ApiRoute[];
let engines: string[];

beforeAll(async () => {
  gateway = await startTestGateway();
  // the routes that speak the text they are sent (a sentence edit or a manuscript takes text too, for a job or project)
  textRoutes = (await apiRoutes(gateway.url)).filter(
    (route) => route.body?.properties?.text && route.method === 'POST' && route.pathParams.length === 0,
  );
  expect(textRoutes.map((route) => route.template).sort()).toEqual([`${TTS_ROOT}/preview`, `${TTS_ROOT}/synthesize`]);
  const list = (await (await gateway.api(`${TTS_ROOT}/engines`)).json()) as { engines: { id: string; available: boolean }[] };
  engines = list.engines.filter((e) => e.available).map((e) => e.id);
});
afterAll(() => gateway.stop());

/** The answer as a failure sentence, or null when it is a well-formed WAV (audible when `words`). */
async function problemOf(route: string, body: object, words?: true): Promise<string | null> {
  const response = await gateway.post(route, body);
  const answer = {
    status: response.status,
    headers: Object.fromEntries(response.headers),
    body: Buffer.from(await response.arrayBuffer()),
  };
  const outcome = outcomeOf(answer, 'POST');
  if (outcome.problem) return outcome.problem;
  if (outcome.status !== 200) return `${outcome.status} ${outcome.code}`;
  if (words) {
    try {
      expectSpeech(sealed(answer.body));
    } catch {
      return 'silent, though the text has words';
    }
  }
  return null;
}

/** A streamed WAV (lengths 0xFFFFFFFF, "to the end") with its real lengths, as a file gets them. */
function sealed(wav: Buffer): Buffer {
  if (wav.length < WAV_HEADER_BYTES || wav.readUInt32LE(4) !== 0xffffffff) return wav;
  const { sampleRate } = parseWav(wav);
  return Buffer.concat([wavHeader(sampleRate, wav.length - WAV_HEADER_BYTES), wav.subarray(WAV_HEADER_BYTES)]);
}

describe('hostile text', () => {
  it('gives a well-formed WAV on every engine for text with something besides controls, never a 5xx', async () => {
    expect(textRoutes.map((r) => r.template)).toContain(`${TTS_ROOT}/synthesize`);
    expect(engines.length).toBeGreaterThan(1);
    // every engine on the synthesize route; the default engine on every route that takes text
    const runs = [
      ...engines.map((engine) => ({ route: `${TTS_ROOT}/synthesize`, engine, texts: ON_EVERY_ENGINE })),
      ...textRoutes.map((r) => ({
        route: r.template,
        engine: undefined,
        texts: r.template === `${TTS_ROOT}/synthesize` ? ON_THE_DEFAULT_ENGINE : [...ON_EVERY_ENGINE, ...ON_THE_DEFAULT_ENGINE],
      })),
    ];
    const failures = (
      await Promise.all(
        runs.map(async ({ route, engine, texts }) => {
          const found: string[] = [];
          for (const { name, text, words } of texts) {
            const problem = await problemOf(route, { text, ...(engine ? { engine } : {}) }, words);
            if (problem) found.push(`${route} ${engine ?? 'default engine'} | ${name}: ${problem}`);
          }
          return found;
        }),
      )
    ).flat();
    expect(failures).toEqual([]);
  });

  it('streams a well-formed WAV for the same texts on the OpenAI route, each engine as the model', async () => {
    const failures: string[] = [];
    // fewer engines at once than the key's speech answers in flight (a 9th would be 429)
    const queue = [...engines];
    await Promise.all(
      Array.from({ length: MAX_SPEECH_STREAMS / 2 }, async () => {
        for (let engine = queue.shift(); engine !== undefined; engine = queue.shift()) {
          for (const { name, text, words } of [...ON_EVERY_ENGINE, ...ON_THE_DEFAULT_ENGINE]) {
            const body = { model: engine, voice: 'alloy', input: text, response_format: 'wav' };
            const problem = await problemOf(OPENAI_SPEECH_PATH, body, words);
            if (problem) failures.push(`${OPENAI_SPEECH_PATH} ${engine} | ${name}: ${problem}`);
          }
        }
      }),
    );
    expect(failures).toEqual([]);
    for (const input of CONTROL_ONLY) {
      const response = await gateway.post(OPENAI_SPEECH_PATH, { model: 'tts-1', voice: 'alloy', input });
      expect([JSON.stringify(input), response.status]).toEqual([JSON.stringify(input), 400]);
      expect(await response.json()).toMatchObject({ error: { code: 'invalid_request', param: 'input' } });
    }
  });

  it('refuses text of whitespace and control characters only with 400 invalid_request', async () => {
    for (const { template } of textRoutes) {
      for (const text of CONTROL_ONLY) {
        const response = await gateway.post(template, { text });
        expect([template, JSON.stringify(text), response.status]).toEqual([template, JSON.stringify(text), 400]);
        expect(await response.json()).toMatchObject({ error: { code: 'invalid_request', message: expect.stringContaining('control') } });
      }
    }
  });

  it('hands engines no control characters: they become spaces (an ESC is a keystroke to a program)', async () => {
    const queued = await gateway.post(`${TTS_ROOT}/synthesize`, { text: 'Keys\u001b:!echo owned\r\u0000\u0085 end', mode: 'job' });
    const { job_id } = (await queued.json()) as { job_id: string };
    const job = (await waitForJob(gateway, job_id)) as unknown as { status: string; title: string; characters: number };
    expect(job).toMatchObject({ status: 'done', title: 'Keys :!echo owned end', characters: 24 });
  });

  it('finishes a job on every engine whose paragraphs include a scene break, emoji and invisible marks', async () => {
    const text = 'Hello there.\n\n* * *\n\n😀 \u200b\u202e';
    const results = await Promise.all(
      engines.map(async (engine) => {
        const queued = await gateway.post(`${TTS_ROOT}/synthesize`, { text, engine, mode: 'job' });
        const { job_id } = (await queued.json()) as { job_id: string };
        const job = (await waitForJob(gateway, job_id)) as { status: string; error?: { message: string } };
        const audio = job.status === 'done' ? Buffer.from(await (await gateway.api(`${jobPath(job_id)}/audio`)).arrayBuffer()) : null;
        return { engine, status: job.status, error: job.error?.message, audio };
      }),
    );
    for (const { engine, status, error, audio } of results) {
      expect([engine, status, error]).toEqual([engine, 'done', undefined]);
      expectSpeech(audio!, { minSeconds: 0.5 });
    }
  });
});
