// A job on the system espeak-ng (Debian's, installed by .ci/run), whose chunks run in batches of a
// few thousand characters per process, through the real gateway over HTTP.
import Database from 'better-sqlite3';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeWav } from '../audio/wav';
import { pauseAfter } from '../jobs/chunk-layout';
import { DATABASE_FILE } from '../storage/database';
import { expectSpeech } from '../testing/audio';
import { useTestGateways, waitForJob } from '../testing/gateway';
import { prose } from '../testing/prose';

const gateways = useTestGateways();

// The first batch is prose alone; the second holds a paragraph eSpeak says nothing for ("..."), so
// its texts cannot be told apart: those chunks are spoken one by one instead.
const TEXT = `${prose(6000)}\n\n...\n\n${prose(700)}`;

describe('a job on a system engine that takes batches', () => {
  it('has the audio of each chunk, joined with the pauses, whether its batch split or not', async () => {
    const gateway = await gateways.start();
    const response = await gateway.post('/api/v1/tts/synthesize', { text: TEXT, mode: 'job', voice: 'espeak-ng-system:en-us' });
    expect(response.status).toBe(202);
    const id = ((await response.json()) as { job_id: string }).job_id;
    expect((await waitForJob(gateway, id)).status).toBe('done');
    const audio = Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${id}/audio`)).arrayBuffer());
    expectSpeech(audio, { sampleRate: 22050, minSeconds: 300 });

    const db = new Database(path.join(gateway.dataDir, DATABASE_FILE), { readonly: true });
    const chunks = db.prepare('SELECT text, samples, pause_ms, attempts FROM chunks WHERE job_id = ? ORDER BY idx').all(id) as {
      text: string;
      samples: number;
      pause_ms: number;
      attempts: number;
    }[];
    db.close();
    // one attempt each where the batch split, a second where it did not
    expect(chunks[0]!.attempts).toBe(1);
    expect(chunks.find((c) => c.text === '...')!.attempts).toBe(2);
    expect(chunks.at(-1)!.attempts).toBe(2);

    const { samples, sampleRate } = decodeWav(audio);
    const ends: number[] = [];
    chunks.forEach((c, i) => ends.push((ends.at(-1) ?? 0) + c.samples + pauseAfter(c.pause_ms, i === chunks.length - 1, sampleRate)));
    expect(samples.length).toBe(ends.at(-1));
    // no break between two texts is left in the audio of the batch that split: no silence of 1.5 s
    let zeros = 0;
    let longest = 0;
    for (const sample of samples.subarray(0, ends[chunks.findIndex((c) => c.attempts > 1) - 1])) {
      zeros = sample === 0 ? zeros + 1 : 0;
      longest = Math.max(longest, zeros);
    }
    expect(longest / sampleRate).toBeGreaterThan(0.5); // the paragraph's pause at least
    expect(longest / sampleRate).toBeLessThan(1.5);
  });
});
