import { ApiError, outputChoice, type FormatQuery, type OutputFormat } from '../contract';
import type { JobFiles } from '../jobs/files';
import type { JobRow } from '../jobs/rows';
import { sampleSource, transcode } from '../jobs/transcode';
import { hasWav } from '../jobs/view';

/** A finished job's audio as it is sent: a stored file (Range requests work), or encoded as it goes. */
export type JobAudio =
  { kind: 'file'; file: string; format: OutputFormat } | { kind: 'encoded'; format: OutputFormat; body: AsyncIterable<Uint8Array> };

/**
 * A done job's audio in the format asked (default: its own): its stored file (its own format, or
 * its WAV kept beside it), else encoded afresh from its samples as it is sent; or why it cannot be
 * (409 format_unavailable: the job keeps only compressed audio). `missing`: the answer when the
 * samples it would encode from are gone.
 */
export async function audioAsAsked(files: JobFiles, row: JobRow, request: FormatQuery, missing: () => ApiError): Promise<JobAudio> {
  const { id } = row;
  const output = outputChoice({ format: request.format ?? row.format, bitrate_kbps: request.bitrate_kbps });
  const asStored = output.format === row.format && (request.bitrate_kbps ?? row.bitrate_kbps) === row.bitrate_kbps;
  if (asStored) return { kind: 'file', file: files.audioFile(id, row.format), format: row.format };
  if (output.format === 'wav' && hasWav(row)) return { kind: 'file', file: files.audioFile(id, 'wav'), format: 'wav' };
  const source = sampleSource(files, row);
  if (!source) {
    const bitrate = row.bitrate_kbps === null ? '' : ` at ${row.bitrate_kbps} kbps`;
    throw new ApiError(
      'format_unavailable',
      `Job ${id} keeps its audio only as ${row.format}${bitrate} (it was queued without keep_wav): ask for format=${row.format} without bitrate_kbps, or queue it with keep_wav: true to have it in any format.`,
    );
  }
  try {
    return { kind: 'encoded', format: output.format, body: await transcode(source, output) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw missing();
    throw error;
  }
}
