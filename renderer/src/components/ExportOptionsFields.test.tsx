import { describe, expect, it } from 'vitest';
import { EXPORT_DEFAULT_KBPS, estimateExportBytes } from '../api/contract';
import { exportFits } from './ExportOptionsFields';

describe('exportFits: the studio asks only what the gateway would admit', () => {
  const hour = 3600;
  it.each(['mp3', 'm4b', 'zip'] as const)('a %s needs room for its file twice (kept segments, then the file)', (format) => {
    const file = estimateExportBytes(hour, EXPORT_DEFAULT_KBPS[format]);
    expect(exportFits(hour, format, file)).toBe(false);
    expect(exportFits(hour, format, 2 * file - 1)).toBe(false);
    expect(exportFits(hour, format, 2 * file)).toBe(true);
    expect(exportFits(hour, format, undefined)).toBe(true);
  });
});
