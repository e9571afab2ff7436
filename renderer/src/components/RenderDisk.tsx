import type { OutputFormat, ProjectDisk } from '../api/contract';
import { formatBytes } from '../lib/format';

/** What a render will write, said before it starts; a warning when the disk cannot take it (the gateway refuses it). */
export function RenderDisk({ disk, format }: { disk: ProjectDisk; format: OutputFormat }) {
  const { bytes } = disk.render;
  const fits = bytes <= disk.free_bytes;
  return (
    <span className={fits ? 'hint' : 'hint error'}>
      {fits
        ? `Up to ${formatBytes(bytes)} of ${format.toUpperCase()} on disk; ${formatBytes(disk.free_bytes)} free.`
        : `Needs up to ${formatBytes(bytes)} of ${format.toUpperCase()}, and only ${formatBytes(disk.free_bytes)} are free: free some disk space first.`}
    </span>
  );
}
