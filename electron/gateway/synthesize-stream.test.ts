/**
 * `"stream": true` on Orator's own /synthesize: the audio leaves sentence by sentence, before the
 * rest of the text is synthesized; decoders read the whole answer; bad combinations are refused.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STREAM_MAX_CHARS, type Job } from '../contract';
import { decodeWav } from '../audio/wav';
import { decodeIndependently } from '../testing/decoders';
import { startTestGateway, waitForJob, type TestGateway } from '../testing/gateway';
import { prose } from '../testing/prose';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway();
});
afterAll(() => gateway.stop());

const TEXT = prose(4000);
const errorOf = async (response: Response) => ((await response.json()) as { error: { code: string; message: string } }).error;

/** Counts the engine's synthesis calls, to see how much was synthesized when the first bytes came. */
function countCalls(): { calls: () => number; restore: () => void } {
  const adapter = gateway.registry.resolve({ voice: 'espeak-ng:en-us' }).adapter;
  const original = adapter.synthesize;
  let calls = 0;
  adapter.synthesize = (request, context) => {
    calls++;
    return original.call(adapter, request, context);
  };
  return { calls: () => calls, restore: () => (adapter.synthesize = original) };
}

describe('POST /synthesize with "stream": true', () => {
  it('sends the first audio after the first sentence, long before the end of 4,000 characters', async () => {
    const counter = countCalls();
    try {
      const response = await gateway.post('/api/v1/tts/synthesize', { text: TEXT, stream: true, format: 'mp3' });
      expect(response.status).toBe(200);
      expect(response.headers.get('transfer-encoding')).toBe('chunked');
      expect(response.headers.get('content-type')).toBe('audio/mpeg');
      expect(response.headers.get('content-disposition')).toBe('inline; filename="orator-speech.mp3"');
      expect(response.headers.get('x-orator-voice')).toBe('espeak-ng:en-us');
      const reader = response.body!.getReader();
      const pieces: Uint8Array[] = [(await reader.read()).value!];
      // the first sentence, and the one synthesized ahead while it is sent
      const callsAtFirstBytes = counter.calls();
      expect(callsAtFirstBytes).toBeLessThanOrEqual(2);
      for (let piece = await reader.read(); !piece.done; piece = await reader.read()) pieces.push(piece.value);
      expect(counter.calls()).toBeGreaterThan(callsAtFirstBytes + 5);
      const decoded = await decodeIndependently('mp3', Buffer.concat(pieces));
      expect(decoded.seconds).toBeGreaterThan(180);
    } finally {
      counter.restore();
    }
  });

  it('streams a WAV that reads "to the end", as long as the same text made as a job', async () => {
    const text = prose(1500);
    const streamed = await gateway.post('/api/v1/tts/synthesize', { text, stream: true });
    expect(streamed.headers.get('content-type')).toBe('audio/wav');
    const file = Buffer.from(await streamed.arrayBuffer());
    expect([file.readUInt32LE(4), file.readUInt32LE(40)]).toEqual([0xffffffff, 0xffffffff]);
    const { samples, sampleRate } = decodeWav(file);
    expect(sampleRate).toBe(22050);
    expect(samples.some((sample) => Math.abs(sample) > 1000)).toBe(true);
    const seconds = samples.length / sampleRate;

    const accepted = await gateway.post('/api/v1/tts/synthesize', { text, mode: 'job' });
    const { job_id } = (await accepted.json()) as { job_id: string };
    expect((await waitForJob(gateway, job_id)).status).toBe('done');
    const job = (await (await gateway.api(`/api/v1/tts/jobs/${job_id}`)).json()) as Job;
    expect(Math.abs(seconds - job.audio!.duration_s)).toBeLessThan(job.audio!.duration_s * 0.05);
  });

  it('refuses a job to stream (400), and text above the streaming limit (413)', async () => {
    const asJob = await gateway.post('/api/v1/tts/synthesize', { text: 'Hello.', stream: true, mode: 'job' });
    expect([asJob.status, (await errorOf(asJob)).code]).toEqual([400, 'invalid_request']);

    const long = await gateway.post('/api/v1/tts/synthesize', { text: prose(STREAM_MAX_CHARS + 200), stream: true });
    const error = await errorOf(long);
    expect([long.status, error.code]).toEqual([413, 'text_too_long']);
    expect(error.message).toContain(`at most ${STREAM_MAX_CHARS}`);
  });
});

describe('a streamed SSML answer', () => {
  it('keeps its breaks: a 2 s break makes it 2 s longer', async () => {
    const seconds = async (text: string) => {
      const response = await gateway.post('/api/v1/tts/synthesize', { text, text_type: 'ssml', stream: true });
      expect(response.status).toBe(200);
      const { samples, sampleRate } = decodeWav(Buffer.from(await response.arrayBuffer()));
      return samples.length / sampleRate;
    };
    const plain = await seconds('<speak>First part. Second part.</speak>');
    const broken = await seconds('<speak>First part. <break time="2s"/> Second part.</speak>');
    expect(broken - plain).toBeGreaterThan(1.7);
    expect(broken - plain).toBeLessThan(2.3);
  });
});
