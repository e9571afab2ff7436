/**
 * The true-peak ceiling holds in the file a listener plays, not only before encoding (issue 34): a
 * two-hour book's M4B read −1.6 dBTP decoded against a −3 ceiling, the limiter having held −3.5
 * before AAC. Four minutes of eSpeak NG speech exported as M4B and MP3 at their default bitrates
 * and as MP3 at 32 kb/s, decoded and measured by FFmpeg (`ebur128`, its own decoders and meter).
 * Before the fix: −3.0 dBTP (M4B at 64 kb/s, then the default), −3.5 (MP3 at 64), −2.5 (MP3 at 32).
 */
import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Export } from '../contract';
import { ffmpegLoudness } from '../testing/ffprobe';
import { startTestGateway, waitForExport, waitForJob, type TestGateway } from '../testing/gateway';

/** About four minutes of speech, pitched up (more inter-sample peaks): its 32 kb/s MP3 passed the ceiling before the fix. */
const TEXT = readFileSync('/usr/share/common-licenses/Apache-2.0', 'utf8').replace(/\s+/g, ' ').slice(0, 4350);
const CEILING = -3;

let gateway: TestGateway;
let jobId: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  const response = await gateway.post('/api/v1/tts/synthesize', { text: TEXT, voice: 'espeak-ng:en-us', pitch: 1.4, mode: 'job' });
  jobId = ((await response.json()) as { job_id: string }).job_id;
  expect((await waitForJob(gateway, jobId)).status).toBe('done');
}, 120_000);
afterAll(() => gateway.stop());

async function exportedFile(format: 'm4b' | 'mp3', bitrateKbps?: number): Promise<{ file: string; view: Export }> {
  const response = await gateway.post('/api/v1/tts/exports', { job_ids: [jobId], format, bitrate_kbps: bitrateKbps });
  expect(response.status, await response.clone().text()).toBe(202);
  const { poll } = (await response.json()) as { poll: string };
  const view = await waitForExport(gateway, poll);
  expect(view.status, JSON.stringify(view.error)).toBe('done');
  const file = path.join(gateway.dataDir, `book-${bitrateKbps ?? 'default'}.${format}`);
  await writeFile(file, new Uint8Array(await (await gateway.api(view.file!.url)).arrayBuffer()));
  return { file, view };
}

const BOOKS = [
  { format: 'm4b', bitrate: 'its default bitrate' },
  { format: 'mp3', bitrate: 'its default bitrate' },
  { format: 'mp3', bitrate: '32 kb/s', kbps: 32 },
] as const;

describe('the true-peak ceiling of lossy exports', () => {
  it.each(BOOKS)(
    '$format at $bitrate: decoded, the true peak is under the ceiling and the loudness on target',
    async (book) => {
      const kbps = 'kbps' in book ? book.kbps : undefined;
      const { file, view } = await exportedFile(book.format, kbps);
      expect(view.file!.duration_s).toBeGreaterThan(200);
      const decoded = await ffmpegLoudness(file);
      console.log(
        `${book.format} at ${book.bitrate}: decoded ${JSON.stringify(decoded)}; before encoding ${JSON.stringify(view.loudness)}`,
      );
      expect(decoded.truePeakDbtp).toBeLessThanOrEqual(CEILING);
      expect(Math.abs(decoded.integratedLufs - -18)).toBeLessThanOrEqual(1);
    },
    180_000,
  );
});
