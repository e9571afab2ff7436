/**
 * Engines that crash, hang or answer garbage: the request or job fails with a clear code, and the
 * next request is served. The system engine is the real espeak-ng behind a script that misbehaves
 * when the text asks it to (configured as a user would, engine_executables in settings.json); the
 * embedded engines run in the real worker bundle behind a worker file that ends its thread or
 * answers garbage on cue, since a WebAssembly engine cannot be made to crash on demand. The
 * embedded hang is real: GnuSpeech overrunning a short engine timeout.
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { wavHeader } from '../audio/wav';
import { expectSpeech } from '../testing/audio';
import { prose } from '../testing/prose';
import { startTestGateway, waitForJob, WORKER_FILE, type TestGateway } from '../testing/gateway';

let fixtures: string;
beforeAll(async () => {
  fixtures = await mkdtemp(path.join(os.tmpdir(), 'orator-faulty-'));
});
afterAll(() => rm(fixtures, { recursive: true, force: true }));

interface ErrorBody {
  error: { code: string; message: string };
}

async function speak(gateway: TestGateway, body: Record<string, unknown>) {
  const started = Date.now();
  const response = await gateway.post('/api/v1/tts/synthesize', body);
  return { response, ms: Date.now() - started };
}

async function expectError(gateway: TestGateway, body: Record<string, unknown>, status: number, code: string): Promise<string> {
  const { response } = await speak(gateway, body);
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const { error } = (await response.json()) as ErrorBody;
  expect(error.code).toBe(code);
  return error.message;
}

async function expectServed(gateway: TestGateway, body: Record<string, unknown>) {
  const { response } = await speak(gateway, body);
  expect(response.status).toBe(200);
  expectSpeech(Buffer.from(await response.arrayBuffer()), { minSeconds: 0.5 });
}

async function failedJob(gateway: TestGateway, body: Record<string, unknown>) {
  const response = await gateway.post('/api/v1/tts/synthesize', { ...body, mode: 'job' });
  const { job_id } = (await response.json()) as { job_id: string };
  const job = (await waitForJob(gateway, job_id)) as { status: string; error?: { code: string; message: string } };
  expect(job.status).toBe('failed');
  expect(existsSync(path.join(gateway.dataDir, 'chunks', job_id))).toBe(false);
  return job.error!;
}

describe('a system engine that crashes, hangs or writes garbage', () => {
  const VOICE = 'espeak-ng-system:en-us';
  let gateway: TestGateway;

  beforeAll(async () => {
    const dir = path.join(fixtures, 'system');
    await rm(dir, { recursive: true, force: true });
    await mkdir(dir, { mode: 0o700 });
    await writeFile(path.join(dir, 'garbage.bin'), randomBytes(5000));
    await writeFile(path.join(dir, 'zero-rate.wav'), Buffer.concat([wavHeader(0, 4000), randomBytes(4000)]));
    const script = path.join(dir, 'espeak-ng');
    const realEspeak = execFileSync('sh', ['-c', 'command -v espeak-ng']).toString().trim();
    await writeFile(
      script,
      `#!/bin/sh
# eSpeak NG that misbehaves when the text asks it to; the real one otherwise.
dir=$(dirname "$0"); text=; wav=; prev=
for arg in "$@"; do
  [ "$prev" = -f ] && text=$arg
  [ "$prev" = -w ] && wav=$arg
  prev=$arg
done
if [ -n "$text" ]; then
  case $(cat "$text") in
    *ENGINE-CRASH*) kill -SEGV $$ ;;
    *ENGINE-HANG*) exec sleep 601 ;;
    *ENGINE-GARBAGE*) cp "$dir/garbage.bin" "$wav"; exit 0 ;;
    *ENGINE-SILENT*) exit 0 ;;
    *ENGINE-BAD-RATE*) cp "$dir/zero-rate.wav" "$wav"; exit 0 ;;
  esac
fi
exec ${realEspeak} "$@"
`,
    );
    await chmod(script, 0o700);
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'orator-test-'));
    await writeFile(path.join(dataDir, 'settings.json'), JSON.stringify({ engine_executables: { 'espeak-ng-system': script } }));
    gateway = await startTestGateway({ dataDir, engineTimeoutS: 2, workers: 1 });
  });
  afterAll(async () => {
    await gateway.close();
    await rm(gateway.dataDir, { recursive: true, force: true });
  });

  it('fails inline requests with engine_error or engine_timeout, and serves the next one', async () => {
    await expectServed(gateway, { text: 'The engine works.', voice: VOICE });

    expect(await expectError(gateway, { text: 'ENGINE-CRASH now.', voice: VOICE }, 502, 'engine_error')).toMatch(/SIGSEGV/);
    await expectServed(gateway, { text: 'After a crash.', voice: VOICE });

    const garbage = await expectError(gateway, { text: 'ENGINE-GARBAGE now.', voice: VOICE }, 502, 'engine_error');
    expect(garbage).toBe('espeak-ng wrote unusable audio: Not a RIFF/WAVE file.');
    const badRate = await expectError(gateway, { text: 'ENGINE-BAD-RATE now.', voice: VOICE }, 502, 'engine_error');
    expect(badRate).toBe('espeak-ng wrote unusable audio: an impossible sample rate of 0 Hz.');
    const silent = await expectError(gateway, { text: 'ENGINE-SILENT now.', voice: VOICE }, 502, 'engine_error');
    expect(silent).toBe('espeak-ng exited without writing any audio.');
    await expectServed(gateway, { text: 'After garbage.', voice: VOICE });

    const started = Date.now();
    const hang = await expectError(gateway, { text: 'ENGINE-HANG now.', voice: VOICE }, 504, 'engine_timeout');
    expect(hang).toBe('espeak-ng did not finish within 2 s and was stopped.');
    expect(Date.now() - started).toBeLessThan(6000);
    // the hung program was killed, not left behind
    expect(execFileSync('ps', ['-eo', 'args']).toString()).not.toContain('sleep 601');
    await expectServed(gateway, { text: 'After a hang.', voice: VOICE });
  });

  it('fails jobs with the same codes after one retry, removes their chunks, and runs the next job', async () => {
    const crashed = await failedJob(gateway, { text: `${prose(1200)}\n\nENGINE-CRASH at the end.`, voice: VOICE });
    expect(crashed.code).toBe('engine_error');
    expect(crashed.message).toMatch(/SIGSEGV/);
    const hung = await failedJob(gateway, { text: 'ENGINE-HANG in a job.', voice: VOICE });
    expect(hung).toEqual({ code: 'engine_timeout', message: 'espeak-ng did not finish within 2 s and was stopped.' });
    expect((await failedJob(gateway, { text: 'ENGINE-GARBAGE in a job.', voice: VOICE })).code).toBe('engine_error');

    const response = await gateway.post('/api/v1/tts/synthesize', { text: prose(1200), voice: VOICE, mode: 'job' });
    const { job_id } = (await response.json()) as { job_id: string };
    expect((await waitForJob(gateway, job_id)).status).toBe('done');
    expectSpeech(Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${job_id}/audio`)).arrayBuffer()), { minSeconds: 20 });
  });
});

describe('an embedded engine whose worker thread dies, hangs or answers garbage', () => {
  let gateway: TestGateway;

  beforeAll(async () => {
    const worker = path.join(fixtures, 'faulty-worker.mjs');
    await writeFile(
      worker,
      `import run from ${JSON.stringify(path.resolve(WORKER_FILE))};
// The real worker, except that it ends its thread or answers garbage when a text (of a batch too) asks it to.
export default async function (task) {
  const texts = task.kind === 'synthesize' ? [task.request.text] : task.kind === 'synthesize-batch' ? task.requests.map((r) => r.text) : [];
  if (texts.some((text) => text.includes('WORKER-CRASH'))) process.exit(3);
  if (texts.some((text) => text.includes('WORKER-GARBAGE'))) return { sampleRate: Number.NaN, samples: 'noise' };
  return run(task);
}
`,
    );
    // long enough for a fresh thread to load its engine on a machine busy with other test files,
    // short enough to see an overrun
    gateway = await startTestGateway({ engineTimeoutS: 8, inlineThreshold: 30_000, workers: 1 }, worker);
  });
  afterAll(() => gateway.stop());

  it('fails inline requests cleanly and the pool serves the next one', async () => {
    await expectServed(gateway, { text: 'The embedded engine works.' });

    const crash = await expectError(gateway, { text: 'WORKER-CRASH now.' }, 502, 'engine_error');
    expect(crash).toBe('eSpeak NG (embedded) failed: worker exited with code: 3');
    await expectServed(gateway, { text: 'After the thread died.' });

    const garbage = await expectError(gateway, { text: 'WORKER-GARBAGE now.' }, 502, 'engine_error');
    expect(garbage).toBe('eSpeak NG (embedded) returned unusable audio: no 16-bit samples.');
    await expectServed(gateway, { text: 'After garbage.' });

    // GnuSpeech needs about 1 ms per character: 25,000 characters overrun the 8 s limit threefold
    await expectServed(gateway, { text: 'Warm up.', voice: 'gnuspeech:male' });
    const started = Date.now();
    const overrun = await expectError(gateway, { text: prose(25_000), voice: 'gnuspeech:male' }, 504, 'engine_timeout');
    expect(overrun).toBe('GnuSpeech (embedded) did not finish within 8 s and was stopped.');
    expect(Date.now() - started).toBeLessThan(14_000);
    await expectServed(gateway, { text: 'After the thread was stopped.' });
  });

  it('fails a job whose chunk kills its worker thread, and runs the next job', async () => {
    const crashed = await failedJob(gateway, { text: `${prose(800)}\n\nWORKER-CRASH at the end.` });
    expect(crashed).toEqual({ code: 'engine_error', message: 'eSpeak NG (embedded) failed: worker exited with code: 3' });
    const response = await gateway.post('/api/v1/tts/synthesize', { text: prose(1200), mode: 'job' });
    const { job_id } = (await response.json()) as { job_id: string };
    expect((await waitForJob(gateway, job_id)).status).toBe('done');
    expectSpeech(Buffer.from(await (await gateway.api(`/api/v1/tts/jobs/${job_id}/audio`)).arrayBuffer()), { minSeconds: 20 });
  });
});
