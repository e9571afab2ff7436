/**
 * Test support: FFmpeg's reading of a file, to check Orator's containers with a reader that shares
 * no code with them (chapters, durations, packet counts, loudness). .ci/run installs ffmpeg for
 * the tests; the product never runs it.
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface Probe {
  format: { format_name: string; duration: string; tags?: Record<string, string> };
  streams: {
    codec_type: string;
    codec_name: string;
    sample_rate?: string;
    duration?: string;
    duration_ts?: number;
    nb_frames?: string;
    nb_read_packets?: string;
  }[];
  chapters: { start_time: string; end_time: string; tags?: { title?: string } }[];
}

async function tool(program: 'ffprobe' | 'ffmpeg', args: string[]): Promise<string> {
  try {
    const { stdout, stderr } = await run(program, args, { maxBuffer: 256 * 1024 * 1024, encoding: 'latin1' });
    return program === 'ffmpeg' ? stderr : stdout;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      throw new Error(`${program} is missing: .ci/run installs ffmpeg`, { cause: error });
    throw error;
  }
}

/** Streams, format and chapters; `countPackets` reads every packet of the file to count them. */
export async function ffprobe(file: string, options: { countPackets?: boolean } = {}): Promise<Probe> {
  const args = ['-v', 'error', '-show_format', '-show_streams', '-show_chapters', '-of', 'json'];
  if (options.countPackets) args.push('-count_packets');
  const out = await tool('ffprobe', [...args, file]);
  // latin1 keeps the bytes; the titles are UTF-8
  return JSON.parse(Buffer.from(out, 'latin1').toString('utf8')) as Probe;
}

/**
 * The audio packets FFmpeg reads in `intervals` (its -read_intervals syntax), each with its index
 * in the track (from its time: 1024 samples a frame, the priming frame first) and size.
 */
export async function ffprobePackets(file: string, intervals: string): Promise<{ index: number; size: number }[]> {
  const args = ['-v', 'error', '-select_streams', 'a:0', '-read_intervals', intervals, '-show_entries', 'packet=pts,size', '-of', 'json'];
  const { packets } = JSON.parse(await tool('ffprobe', [...args, file])) as { packets: { pts: number; size: string }[] };
  return packets.map((p) => ({ index: p.pts / 1024 + 1, size: Number(p.size) }));
}

/** Mono 16-bit samples decoded by FFmpeg, from `fromS` for `seconds` (the whole file without them). */
export async function ffmpegDecode(file: string, fromS = 0, seconds?: number): Promise<{ samples: Int16Array; sampleRate: number }> {
  const probe = await ffprobe(file);
  const sampleRate = Number(probe.streams.find((s) => s.codec_type === 'audio')!.sample_rate);
  const span = seconds === undefined ? [] : ['-t', String(seconds)];
  const { stdout } = await run('ffmpeg', ['-v', 'error', '-ss', String(fromS), ...span, '-i', file, '-ac', '1', '-f', 's16le', '-'], {
    encoding: 'buffer',
    maxBuffer: 1024 * 1024 * 1024,
  });
  const bytes = Buffer.from(stdout);
  return { samples: new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2), sampleRate };
}

/** FFmpeg's EBU R 128 meter (`ebur128`): integrated loudness and true peak of the whole file. */
export async function ffmpegLoudness(file: string): Promise<{ integratedLufs: number; truePeakDbtp: number }> {
  // the audio only (a cover is a video stream), and each 100 ms block's line at the verbose level, not printed
  const filter = 'ebur128=peak=true:framelog=verbose';
  const log = await tool('ffmpeg', ['-nostats', '-hide_banner', '-i', file, '-map', '0:a:0', '-af', filter, '-f', 'null', '-']);
  const summary = log.slice(log.lastIndexOf('Summary:'));
  const integrated = /I:\s+(-?[\d.]+) LUFS/.exec(summary);
  const peak = /Peak:\s+(-?[\d.]+|-inf) dBFS/.exec(summary);
  if (!integrated || !peak) throw new Error(`No ebur128 summary in FFmpeg's output: ${summary.slice(0, 400)}`);
  return { integratedLufs: Number(integrated[1]), truePeakDbtp: Number(peak[1]) };
}
