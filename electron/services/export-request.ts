/** An export request checked: the spec it asks for, and the book its jobs make within the export limits. */
import { ApiError, bitrateProblem, EXPORT_DEFAULT_KBPS, EXPORT_LIMITS, type ExportRequest } from '../contract';
import type { BookPart } from '../jobs/export/book-audio';
import { planBook, type BookPlan, type ExportSpec } from '../jobs/export/render';

const JPEG = [0xff, 0xd8, 0xff];
const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** The spec an export request asks for: its bitrate checked, its cover checked, the defaults of what it leaves out. */
export function specOf(request: ExportRequest): ExportSpec {
  const bitrateKbps = request.bitrate_kbps ?? EXPORT_DEFAULT_KBPS[request.format];
  const problem = bitrateProblem(request.format === 'm4b' ? 'm4a' : 'mp3', bitrateKbps);
  if (problem) throw new ApiError('invalid_request', problem);
  return {
    format: request.format,
    bitrateKbps,
    title: request.title ?? '',
    author: request.author,
    cover: request.cover === undefined ? undefined : coverOf(request.cover),
    goal: {
      targetLufs: request.loudness_target_lufs ?? EXPORT_LIMITS.loudness.default,
      ceilingDbtp: request.true_peak_dbtp ?? EXPORT_LIMITS.truePeak.default,
    },
    headMs: request.room_tone_head_ms ?? EXPORT_LIMITS.roomToneMs.default,
    tailMs: request.room_tone_tail_ms ?? EXPORT_LIMITS.roomToneMs.default,
    chapters: request.chapters ?? 'auto',
  };
}

function coverOf(base64: string): Uint8Array {
  const bytes = Buffer.from(base64, 'base64');
  const starts = (magic: number[]) => magic.every((b, i) => bytes[i] === b);
  if (!starts(JPEG) && !starts(PNG)) throw new ApiError('invalid_request', '"cover" must be a JPEG or PNG image, base64-encoded.');
  if (bytes.length > EXPORT_LIMITS.coverBytes)
    throw new ApiError('invalid_request', `"cover" is at most ${EXPORT_LIMITS.coverBytes} bytes.`);
  return bytes;
}

/**
 * The book `parts` make, with its length in seconds; refused when the request's chapters name a job
 * it does not list, or the book passes the export limits (hours, chapters).
 */
export function checkedPlan(request: ExportRequest, parts: BookPart[], spec: ExportSpec): { plan: BookPlan; seconds: number } {
  if (Array.isArray(request.chapters)) {
    const stranger = request.chapters.find((c) => !request.job_ids.includes(c.job_id));
    if (stranger)
      throw new ApiError('invalid_request', `Chapter "${stranger.title}" names job ${stranger.job_id}, which is not in job_ids.`);
  }
  const plan = planBook(parts, spec);
  const hours = plan.layout.totalSamples / plan.layout.sampleRate / 3600;
  if (hours > EXPORT_LIMITS.hours) {
    throw new ApiError(
      'invalid_request',
      `An export holds at most ${EXPORT_LIMITS.hours} hours of audio; these jobs make ${hours.toFixed(1)}.`,
    );
  }
  if (plan.chapters.length > EXPORT_LIMITS.chapters) {
    throw new ApiError(
      'invalid_request',
      `An export has at most ${EXPORT_LIMITS.chapters} chapters; these jobs make ${plan.chapters.length}.`,
    );
  }
  return { plan, seconds: hours * 3600 };
}
