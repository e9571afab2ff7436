/** An export as planned when it is accepted, what it may take of the disk, and its record once made. */
import { EXPORT_MEDIA, estimateExportBytes, exportReserveBytes } from '../contract';
import type { BookPart } from '../jobs/export/book-audio';
import type { ExportRecord } from '../jobs/export/export-store';
import type { BookPlan, ExportSpec, RenderedLoudness } from '../jobs/export/render';

/** JSON has no infinities: a silent book's loudness is reported at the absolute gate. */
const finite = (value: number) => (Number.isFinite(value) ? Math.round(value * 100) / 100 : -70);

/**
 * The disk an export takes at most while it is made: its file at 1.5 × its bitrate (containers and
 * codecs overshoot), twice when its frames are written apart first: a book made of segments keeps
 * each segment's frames in the export cache (segments.ts) and joins them into the file, and an M4B
 * in one pass waits its frames in a side file. Segments kept from an earlier export are not taken
 * off: which ones the export reuses depends on the gain it settles on while it runs, and until its
 * turn comes the ledger may reclaim them; what it did not write is given back when it ends.
 */
export function bookBytes(spec: ExportSpec, seconds: number, segmented: boolean): number {
  return (segmented || spec.format === 'm4b' ? exportReserveBytes : estimateExportBytes)(seconds, spec.bitrateKbps);
}

/** What an export is made from, as planned when it was accepted. */
export interface PlannedBook {
  parts: BookPart[];
  spec: ExportSpec;
  plan: BookPlan;
}

/** A made export's record: its file and loudness. */
export function doneFields(book: PlannedBook, name: string, bytes: number, loudness: RenderedLoudness): Partial<ExportRecord> {
  const { spec, plan } = book;
  return {
    status: 'done',
    finished_at: new Date().toISOString(),
    file: {
      name,
      content_type: EXPORT_MEDIA[spec.format].contentType,
      bytes,
      duration_s: Math.round((plan.layout.totalSamples / plan.layout.sampleRate) * 1000) / 1000,
    },
    loudness: {
      target_lufs: spec.goal.targetLufs,
      true_peak_ceiling_dbtp: spec.goal.ceilingDbtp,
      measured_lufs: finite(loudness.measuredLufs),
      gain_db: Math.round(loudness.gainDb * 100) / 100,
      integrated_lufs: finite(loudness.integratedLufs),
      true_peak_dbtp: finite(loudness.truePeakDbtp),
      limited: loudness.limited,
    },
  };
}
