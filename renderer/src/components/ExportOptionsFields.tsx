import { useState } from 'react';
import {
  EXPORT_DEFAULT_KBPS,
  EXPORT_LIMITS,
  estimateExportBytes,
  exportReserveBytes,
  type ExportFormat,
  type ExportOptions,
} from '../api/contract';
import { base64Of } from '../lib/base64';
import { formatBytes } from '../lib/format';

const FORMATS: Record<ExportFormat, string> = {
  m4b: 'M4B audiobook (chapter marks)',
  mp3: 'MP3 (ID3 chapters)',
  zip: 'One MP3 per chapter (ZIP)',
};

/** The true-peak ceilings offered: −3 dBTP is what ACX asks for; −1 and −2 suit other platforms. */
const CEILINGS = [-1, -2, -3, -4, -6];

export interface ExportChoices {
  format: ExportFormat;
  loudness: number;
  truePeak: number;
  roomToneMs: number;
  cover: File | null;
}

/**
 * The options of an audiobook export, the same for the Studio's export of jobs and a project's
 * (one schema in the contract: ExportOptions), and the body they make.
 */
export function useExportChoices() {
  const [choices, setChoices] = useState<ExportChoices>({
    format: 'm4b',
    loudness: EXPORT_LIMITS.loudness.default,
    truePeak: EXPORT_LIMITS.truePeak.default,
    roomToneMs: EXPORT_LIMITS.roomToneMs.default,
    cover: null,
  });
  const change = (patch: Partial<ExportChoices>) => setChoices((c) => ({ ...c, ...patch }));
  const body = async (): Promise<ExportOptions> => ({
    format: choices.format,
    loudness_target_lufs: choices.loudness,
    true_peak_dbtp: choices.truePeak,
    room_tone_head_ms: choices.roomToneMs,
    room_tone_tail_ms: choices.roomToneMs,
    ...(choices.cover ? { cover: await base64Of(choices.cover) } : {}),
  });
  return { choices, change, body };
}

/** Whether the gateway would find room for an export of `seconds` in `freeBytes` (unknown: assumed to). */
export const exportFits = (seconds: number, format: ExportFormat, freeBytes: number | undefined) =>
  freeBytes === undefined || exportReserveBytes(seconds, EXPORT_DEFAULT_KBPS[format]) <= freeBytes;

interface Props {
  choices: ExportChoices;
  onChange(patch: Partial<ExportChoices>): void;
  /** The book's length, for the size shown before the export. */
  bookSeconds: number;
  /** What may be written on the gateway's disk, when known. */
  freeBytes?: number | undefined;
}

/** Format, loudness, true peak, room tone and cover; then what the file will take on disk. */
export function ExportOptionsFields({ choices, onChange, bookSeconds, freeBytes }: Props) {
  const kbps = EXPORT_DEFAULT_KBPS[choices.format];
  const bytes = estimateExportBytes(bookSeconds, kbps);
  const fits = exportFits(bookSeconds, choices.format, freeBytes);
  const { roomToneMs } = EXPORT_LIMITS;
  return (
    <>
      <label>
        Audiobook format{' '}
        <select value={choices.format} onChange={(e) => onChange({ format: e.target.value as ExportFormat })}>
          {Object.entries(FORMATS).map(([id, label]) => (
            <option key={id} value={id}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <label>
        Loudness{' '}
        <select value={choices.loudness} onChange={(e) => onChange({ loudness: Number(e.target.value) })}>
          <option value={-18}>Audiobook, −18 LUFS</option>
          <option value={-20}>Quieter, −20 LUFS</option>
          <option value={-23}>Broadcast, −23 LUFS</option>
        </select>
      </label>
      <label>
        True peak{' '}
        <select value={choices.truePeak} onChange={(e) => onChange({ truePeak: Number(e.target.value) })}>
          {CEILINGS.map((dbtp) => (
            <option key={dbtp} value={dbtp}>
              at most {String(dbtp).replace('-', '−')} dBTP
            </option>
          ))}
        </select>
      </label>
      <label>
        Room tone (ms){' '}
        <input
          type="number"
          min={roomToneMs.min}
          max={roomToneMs.max}
          step={50}
          value={choices.roomToneMs}
          onChange={(e) => onChange({ roomToneMs: Number(e.target.value) })}
        />
      </label>
      <label>
        Cover <input type="file" accept="image/jpeg,image/png" onChange={(e) => onChange({ cover: e.target.files?.[0] ?? null })} />
      </label>
      <p className={`hint export-size${fits ? '' : ' error'}`}>
        {`The file: up to ${formatBytes(bytes)} at ${kbps} kb/s, with captions (WebVTT, SubRip)`}
        {freeBytes !== undefined &&
          (fits
            ? `; ${formatBytes(freeBytes)} free.`
            : `; making it takes up to ${formatBytes(exportReserveBytes(bookSeconds, kbps))} while it runs, and only ${formatBytes(freeBytes)} are free: free some disk space first.`)}
      </p>
    </>
  );
}
