/**
 * The built `orator` command (dist/cli.mjs) against a real gateway: exit codes, messages, output
 * files decoded by programs that share no code with the encoders, and a job's progress bar.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeIndependently } from '../testing/decoders';
import { startTestGateway, type TestGateway } from '../testing/gateway';
import { prose } from '../testing/prose';
import { GATEWAY_URL_FILE } from '../gateway/url-file';

const CLI = path.resolve('dist/cli.mjs');

let gateway: TestGateway;
let dir: string;
beforeAll(async () => {
  gateway = await startTestGateway();
  dir = await mkdtemp(path.join(os.tmpdir(), 'orator-cli-'));
});
afterAll(async () => {
  await gateway.stop();
  await rm(dir, { recursive: true, force: true });
});

interface Run {
  code: number;
  stdout: Buffer;
  stderr: string;
}

/** Runs the command with the gateway's data folder, as a user would after `export ORATOR_DATA_DIR=…`. */
function orator(args: string[], options: { env?: Record<string, string>; stdin?: string } = {}): Promise<Run> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      {
        env: { PATH: process.env.PATH, ORATOR_DATA_DIR: gateway.dataDir, ...options.env },
        encoding: 'buffer',
        maxBuffer: 64 * 1024 * 1024,
      },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code) : 0, stdout, stderr: stderr.toString() }),
    );
    child.stdin!.end(options.stdin ?? '');
  });
}

const out = (name: string) => path.join(dir, name);

// side by side: each runs a command that only reads its arguments, and mostly waits on Node's start
describe.concurrent('orator --help and usage errors', () => {
  it.each(['say', 'voices', 'jobs', 'job'])('orator %s --help explains the command and exits 0', async (command) => {
    const run = await orator([command, '--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.toString()).toMatch(new RegExp(`^Usage: orator ${command}`));
    expect(run.stdout.toString()).toContain('--data-dir');
  });

  it('lists the commands with --help (0), and without a command (2, on standard error)', async () => {
    const help = await orator(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['say', 'voices', 'jobs', 'job']) expect(help.stdout.toString()).toContain(`  ${command} `);
    const bare = await orator([]);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toContain('Usage: orator <command>');
  });

  it.each([
    [['bogus'], 'Unknown command "bogus"'],
    [['say', '--bogus', 'x'], "Unknown option '--bogus'"],
    [['say', 'Hi', '-r', '3', '-o', 'x.wav'], '--rate must be a number from 0.5 to 2'],
    [['say', 'Hi', '-o', 'x.webm'], 'Cannot tell the format from "x.webm"'],
    [['say', 'Hi', '--format', 'wma', '-o', 'x'], 'Unknown format "wma"'],
    [['say', '-o', 'x.wav'], 'The text is empty'],
    [['say', 'Hi', '-f', 'text.txt', '-o', 'x.wav'], 'not both'],
    [['jobs', '--status', 'lost'], '--status must be one of running, done, failed'],
    [['job'], 'Name the job'],
    [['voices', 'extra'], 'Unknown "orator voices extra": available, install or remove'],
  ])('exits 2 on a usage error: orator %j', async (args, message) => {
    const run = await orator(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^orator: /);
    expect(run.stderr).toContain(message);
    expect(run.stdout.length).toBe(0);
  });
});

describe('orator say', () => {
  it('writes each format of short text to a file that decodes to the same length', async () => {
    const text = prose(300);
    const wav = await orator(['say', text, '-o', out('short.wav')]);
    expect([wav.code, wav.stderr, wav.stdout.length]).toEqual([0, '', 0]);
    const reference = await decodeIndependently('wav', await readFile(out('short.wav')));
    expect(reference.seconds).toBeGreaterThan(10);
    for (const [file, format] of [
      ['short.mp3', 'mp3'],
      ['short.opus', 'ogg'],
      ['short.m4a', 'm4a'],
    ] as const) {
      const run = await orator(['say', text, '-o', out(file), '-v', 'espeak-ng:en-us']);
      expect(run.code).toBe(0);
      const decoded = await decodeIndependently(format, await readFile(out(file)));
      expect(Math.abs(decoded.seconds - reference.seconds)).toBeLessThan(reference.seconds * 0.05);
    }
  });

  it('gives a WAV file its real lengths, though the gateway streams it without', async () => {
    const run = await orator(['say', 'Lengths are sealed.', '-o', out('sealed.wav')]);
    expect(run.code).toBe(0);
    const bytes = await readFile(out('sealed.wav'));
    expect(bytes.readUInt32LE(4)).toBe(bytes.length - 8);
    expect(bytes.readUInt32LE(40)).toBe(bytes.length - 44);
  });

  it('reads standard input and writes standard output', async () => {
    const run = await orator(['say', '--format', 'flac', '-v', 'fable'], { stdin: 'Piped in, piped out.' });
    expect([run.code, run.stderr]).toEqual([0, '']);
    expect(run.stdout.subarray(0, 4).toString('latin1')).toBe('fLaC');
    expect((await decodeIndependently('flac', run.stdout)).seconds).toBeGreaterThan(0.8);
  });

  it('queues long text as a job, shows its progress, and downloads its audio', async () => {
    const text = prose(4500);
    await writeFile(out('chapter.txt'), text);
    const run = await orator(['say', '-f', out('chapter.txt'), '-o', out('chapter.mp3'), '--progress']);
    expect(run.code).toBe(0);
    const id = /Queued job ([0-9a-f-]+) \(4,500 characters\)/.exec(run.stderr)?.[1];
    expect(id).toBeDefined();
    const bars = run.stderr.split('\r').filter((line) => line.startsWith('Job '));
    expect(bars.at(-1)).toMatch(/\[#{30}\] 100% (\d+)\/\1 chunks/);
    expect(run.stderr).toContain(`Wrote ${out('chapter.mp3')}.`);
    const decoded = await decodeIndependently('mp3', await readFile(out('chapter.mp3')));
    const job = (await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as { audio: { duration_s: number } };
    expect(Math.abs(decoded.seconds - job.audio.duration_s)).toBeLessThan(job.audio.duration_s * 0.05);

    const listed = await orator(['jobs', '--json']);
    expect((JSON.parse(listed.stdout.toString()) as { job_id: string }[]).map((j) => j.job_id)).toContain(id);
    const table = await orator(['jobs']);
    expect(table.stdout.toString()).toMatch(new RegExp(`^${id}\\s+done\\s+(\\d+)/\\1\\s+4500\\s`, 'm'));
    const shown = await orator(['job', id!]);
    expect(shown.stdout.toString()).toMatch(/^status:\s+done$/m);
    // the job was queued as MP3: its file is that, and no WAV of it is left
    expect((await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as object).toMatchObject({ format: 'mp3', keep_wav: false });
    const again = await orator(['job', id!, '-o', out('again.mp3')]);
    expect([again.code, again.stderr]).toEqual([0, '']); // no terminal: no progress bar
    // Buffer.equals: toEqual walks 4 MB element by element, for 22 s
    expect((await readFile(out('again.mp3'))).equals(await readFile(out('chapter.mp3'))), 'the same bytes').toBe(true);
    const other = await orator(['job', id!, '-o', out('chapter.flac')]);
    expect(other.code).toBe(1);
    expect(other.stderr).toMatch(/only as mp3 at 128 kbps .*keep_wav/);
  });

  it('speaks long text with an OpenAI voice name, in "opus", as a job with the voice it maps to', async () => {
    await writeFile(out('alloy.txt'), prose(5860));
    const run = await orator(['say', '-f', out('alloy.txt'), '-v', 'alloy', '--format', 'opus', '-o', out('alloy.ogg'), '--progress']);
    expect([run.code, run.stderr.split('\n').at(-2)]).toEqual([0, `Wrote ${out('alloy.ogg')}.`]);
    const id = /Queued job ([0-9a-f-]+) \(5,860 characters\)/.exec(run.stderr)![1]!;
    const job = (await (await gateway.api(`/api/v1/tts/jobs/${id}`)).json()) as {
      voice: string;
      format: string;
      audio: { duration_s: number };
    };
    expect(job).toMatchObject({ voice: 'espeak-ng:en-us', format: 'ogg' });
    const decoded = await decodeIndependently('ogg', await readFile(out('alloy.ogg')));
    expect(Math.abs(decoded.seconds - job.audio.duration_s)).toBeLessThan(job.audio.duration_s * 0.05);
  }, 240_000);

  it('draws the progress bar by itself when standard error is a terminal', async () => {
    await writeFile(out('tty.txt'), prose(4200));
    const command = [process.execPath, CLI, 'say', '-f', out('tty.txt'), '-o', out('tty.wav')].map((a) => `'${a}'`).join(' ');
    const run = await new Promise<{ code: number; output: string }>((resolve) => {
      execFile(
        'script',
        ['-qec', command, '/dev/null'],
        { env: { PATH: process.env.PATH, ORATOR_DATA_DIR: gateway.dataDir } },
        (error, stdout) => resolve({ code: error ? Number(error.code) : 0, output: stdout }),
      );
    });
    expect(run.code).toBe(0);
    expect(run.output).toMatch(/\] 100% /);
    expect((await stat(out('tty.wav'))).size).toBeGreaterThan(100_000);
  });
});

describe('orator voices', () => {
  it('lists the voices of a language, as a table or JSON', async () => {
    const table = await orator(['voices', '--lang', 'de']);
    expect(table.code).toBe(0);
    const [header, ...rows] = table.stdout.toString().trim().split('\n');
    expect(header).toMatch(/^VOICE\s+LANGUAGE\s+GENDER/);
    expect(rows.map((r) => r.split(/\s+/)[0])).toContain('espeak-ng:de');
    for (const row of rows) expect(row.split(/\s+/)[1]).toMatch(/^de(-|$)/);
    const json = JSON.parse((await orator(['voices', '--engine', 'flite', '--json'])).stdout.toString()) as { id: string }[];
    expect(json.map((v) => v.id)).toContain('flite:slt');
    expect(json.every((v) => v.id.startsWith('flite:'))).toBe(true);
  });
});

describe('Ctrl-C', () => {
  it('stops waiting for a job (130) and says how to fetch it later; the job goes on, no file is left', async () => {
    await writeFile(out('long.txt'), prose(6000));
    const child = spawn(process.execPath, [CLI, 'say', '-f', out('long.txt'), '-o', out('long.mp3'), '--progress'], {
      env: { PATH: process.env.PATH, ORATOR_DATA_DIR: gateway.dataDir },
    });
    let stderr = '';
    const queued = new Promise<string>((resolve) =>
      child.stderr.on('data', (piece: Buffer) => {
        stderr += piece.toString();
        const id = /Queued job ([0-9a-f-]+)/.exec(stderr)?.[1];
        if (id) resolve(id);
      }),
    );
    const id = await queued;
    child.kill('SIGINT');
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(130);
    expect(stderr).toContain(`job ${id} goes on in the gateway (orator job ${id} -o <file> fetches it)`);
    expect(existsSync(out('long.mp3'))).toBe(false);
    const fetched = await orator(['job', id, '-o', out('long.mp3')]);
    expect([fetched.code, fetched.stderr]).toEqual([0, '']);
    expect((await decodeIndependently('mp3', await readFile(out('long.mp3')))).seconds).toBeGreaterThan(300);
  });
});

describe('failures exit 1 with one sentence', () => {
  it('names a voice the gateway does not have, and leaves no file', async () => {
    const run = await orator(['say', 'Hi', '-v', 'nobody', '-o', out('none.mp3')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^orator: Unknown voice "nobody".* \(orator voices lists them\.\)\n$/);
    expect(existsSync(out('none.mp3'))).toBe(false);
    expect(existsSync(out('none.mp3.part'))).toBe(false);
  });

  it('says when no gateway runs for the data folder, or none answers at its address', async () => {
    const empty = await mkdtemp(path.join(os.tmpdir(), 'orator-cli-empty-'));
    try {
      const none = await orator(['voices'], { env: { ORATOR_DATA_DIR: empty } });
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`No running Orator gateway found: ${path.join(empty, GATEWAY_URL_FILE)} is missing`);
      await writeFile(path.join(empty, GATEWAY_URL_FILE), 'http://127.0.0.1:9\n');
      await writeFile(path.join(empty, 'api-key'), 'a-key\n');
      const gone = await orator(['voices'], { env: { ORATOR_DATA_DIR: empty } });
      expect(gone.code).toBe(1);
      expect(gone.stderr).toBe('orator: Cannot reach the Orator gateway at http://127.0.0.1:9. Is Orator running?\n');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });

  it('sends no request with a key the server cannot prove it holds', async () => {
    const run = await orator(['jobs'], { env: { ORATOR_API_KEY: 'not-the-key' } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain(`The server at ${gateway.url} does not hold the API key from ORATOR_API_KEY`);
  });

  it('finds the key file the gateway was started with, and names the variable it cannot read', async () => {
    const keyFile = out('given-key');
    await writeFile(keyFile, 'key-from-a-file\n', { mode: 0o600 });
    // started side by side: a start waits mostly on its engines' probes
    const [byFile, byVariable] = await Promise.all([
      startTestGateway({ apiKey: 'key-from-a-file', apiKeySource: `--api-key-file ${keyFile}`, apiKeyFile: keyFile }),
      startTestGateway({ apiKey: 'key-from-the-environment', apiKeySource: 'ORATOR_API_KEY' }),
    ]);
    try {
      // <data-dir>/api-key of each holds another, older key
      const listed = await orator(['voices', '--lang', 'de'], { env: { ORATOR_DATA_DIR: byFile.dataDir } });
      expect([listed.code, listed.stderr]).toEqual([0, '']);
      const refused = await orator(['voices'], { env: { ORATOR_DATA_DIR: byVariable.dataDir } });
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        `orator: The server at ${byVariable.url} does not hold the API key from ${path.join(byVariable.dataDir, 'api-key')}: it was started with its key from ORATOR_API_KEY; give the same key with --api-key-file <file>, ORATOR_API_KEY_FILE or ORATOR_API_KEY.\n`,
      );
      const given = await orator(['voices'], { env: { ORATOR_DATA_DIR: byVariable.dataDir, ORATOR_API_KEY: 'key-from-the-environment' } });
      expect(given.code).toBe(0);
    } finally {
      await Promise.all([byFile.stop(), byVariable.stop()]);
    }
  });

  it('says when the output cannot be written', async () => {
    const run = await orator(['say', 'Hi', '-o', path.join(dir, 'no-such-folder', 'x.wav')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/^orator: Cannot write .*no-such-folder\/x\.wav: ENOENT/);
  });

  it('answers an unknown job 1', async () => {
    const run = await orator(['job', 'no-such-job']);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('orator: No job "no-such-job".\n');
  });
});
