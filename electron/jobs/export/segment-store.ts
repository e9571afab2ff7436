/**
 * What exports made of each segment of a book (segments.ts), kept for the next export of it: the
 * loudness measurements of the segment as it is and after a gain and the limiter, and its AAC or
 * MP3 frames at a gain and bitrate. In `<data dir>/export-cache/`: `<hash>.json` (the figures, the
 * frames' sizes) and, for an encode, `<hash>.aac` (the raw frames) or `<hash>.mp3`. A key names everything the
 * bytes depend on (keys.ts), so an entry is never stale, only unused. Bounded (the setting
 * `export_cache_mb`): past it the least recently used entries go, each whole (its figures and
 * frames), after each export and when the bound changes, but none while an export runs (a use is
 * an export that took it; file times keep the order across restarts).
 */
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../../storage/private-files';
import type { Reclaimable } from '../disk-budget';
import type { SegmentResult } from './segment-worker';

export const EXPORT_CACHE_DIR = 'export-cache';

/** What an entry is of (its segment's key) and at which gain, for finding an earlier export's gain. */
export interface EntryLabel {
  segment: string;
  /** "raw:steps", "limited", "aac:<kbps>" or "mp3:<kbps>" with the ceiling: what the figures are of. */
  kind: string;
  gainDb: number | null;
}

interface Entry extends EntryLabel {
  bytes: number;
  used: number;
}

interface Stored extends EntryLabel {
  blocks: string;
  truePeakDbtp: number | null;
  steps?: { powers: string; peaks: string };
  aac?: { config: string; sampleRate: number; channels: number; frameSizes: string };
  mp3?: { bytes: number };
}

export type FramesFormat = 'aac' | 'mp3';
/** The format of the frames an entry of `kind` keeps, if any. */
const framesOf = (kind: string): FramesFormat | undefined => (['aac', 'mp3'] as const).find((f) => kind.startsWith(`${f}:`));

const b64 = (array: ArrayBufferView) => Buffer.from(array.buffer, array.byteOffset, array.byteLength).toString('base64');
const bytesOf = (text: string) => {
  const buffer = Buffer.from(text, 'base64');
  return buffer.buffer.slice(buffer.byteOffset, buffer.byteOffset + buffer.byteLength);
};

export class SegmentStore implements Reclaimable {
  /** The disk ledger's key of the store (its writes are the exports'). */
  readonly key = 'export-cache';
  readonly dir: string;
  private exporting = 0;
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;
  private lastUse = 0;
  /** Segments encoded and kept since the store opened, and encodes taken from it by exports (tests and the bench count them). */
  readonly counts = { encoded: 0, reused: 0 };

  private constructor(
    dataDir: string,
    private maxBytes: number,
  ) {
    this.dir = path.join(dataDir, EXPORT_CACHE_DIR);
  }

  /** Opens the store of a data dir, holding at most `maxBytes`; half-written files (a stop mid-export) go. */
  static async open(dataDir: string, maxBytes: number): Promise<SegmentStore> {
    const store = new SegmentStore(dataDir, maxBytes);
    await mkdir(store.dir, { recursive: true, mode: PRIVATE_DIR_MODE });
    const names = await readdir(store.dir);
    const found: [string, Entry][] = [];
    for (const name of names.filter((n) => n.endsWith('.json'))) {
      const key = name.slice(0, -5);
      try {
        const stored = JSON.parse(await readFile(path.join(store.dir, name), 'utf8')) as Stored;
        const sizes = await Promise.all(store.filesOf(key, framesOf(stored.kind)).map((f) => stat(f)));
        const { segment, kind, gainDb } = stored;
        found.push([key, { segment, kind, gainDb, bytes: sizes.reduce((n, s) => n + s.size, 0), used: sizes[0]!.mtimeMs }]);
      } catch {
        await store.drop(key);
      }
    }
    const known = new Set(found.map(([key]) => key));
    const strays = names.filter((n) => !known.has(n.replace(/\.(json|aac|mp3)$/, '')) && !n.endsWith('.json'));
    await Promise.all(strays.map((n) => rm(path.join(store.dir, n), { force: true })));
    found.sort((a, b) => a[1].used - b[1].used);
    for (const [key, entry] of found) {
      store.entries.set(key, { ...entry, used: ++store.lastUse });
      store.bytes += entry.bytes;
    }
    await store.evictTo(maxBytes);
    return store;
  }

  /** Where an encode for `key` writes its frames before it is kept. */
  partialFrames(key: string, format: FramesFormat): string {
    return `${this.framesFile(key, format)}.partial`;
  }

  framesFile(key: string, format: FramesFormat): string {
    return path.join(this.dir, `${key}.${format}`);
  }

  /** The figures (and frames' sizes) kept under `key`, or null. */
  async get(key: string): Promise<SegmentResult | null> {
    if (!this.entries.has(key)) return null;
    try {
      const stored = JSON.parse(await readFile(path.join(this.dir, `${key}.json`), 'utf8')) as Stored;
      await this.touch(key);
      const aac = stored.aac && {
        config: new Uint8Array(bytesOf(stored.aac.config)),
        sampleRate: stored.aac.sampleRate,
        channels: stored.aac.channels,
        frameSizes: new Uint16Array(bytesOf(stored.aac.frameSizes)),
      };
      const blocks = new Float64Array(bytesOf(stored.blocks));
      const steps = stored.steps && {
        powers: new Float64Array(bytesOf(stored.steps.powers)),
        peaks: new Float32Array(bytesOf(stored.steps.peaks)),
      };
      return {
        blocks,
        truePeakDbtp: stored.truePeakDbtp ?? -Infinity,
        ...(steps ? { steps } : {}),
        ...(aac ? { aac } : {}),
        ...(stored.mp3 ? { mp3: stored.mp3 } : {}),
      };
    } catch {
      // removed from outside Orator: not held any more
      await this.drop(key);
      return null;
    }
  }

  /**
   * Keeps a result (an encode's frames are at partialFrames(key, its format)). Nothing is evicted until the
   * export ends (trim): the frames it will join stay, even past the bound, while it runs.
   */
  async put(key: string, label: EntryLabel, result: SegmentResult): Promise<void> {
    const { aac, mp3 } = result;
    const stored: Stored = {
      ...label,
      blocks: b64(result.blocks),
      truePeakDbtp: Number.isFinite(result.truePeakDbtp) ? result.truePeakDbtp : null,
      ...(result.steps ? { steps: { powers: b64(result.steps.powers), peaks: b64(result.steps.peaks) } } : {}),
      ...(aac ? { aac: { ...aac, config: b64(aac.config), frameSizes: b64(aac.frameSizes) } } : {}),
      ...(mp3 ? { mp3 } : {}),
    };
    const text = JSON.stringify(stored);
    const format = framesOf(label.kind);
    if (format) await rename(this.partialFrames(key, format), this.framesFile(key, format));
    await writeFile(path.join(this.dir, `${key}.json`), text, { mode: PRIVATE_FILE_MODE });
    let bytes = Buffer.byteLength(text);
    if (format) {
      bytes += aac ? aac.frameSizes.reduce((n, size) => n + size, 0) : (mp3?.bytes ?? 0);
      this.counts.encoded++;
    }
    const replaced = this.entries.get(key);
    this.entries.set(key, { ...label, bytes, used: ++this.lastUse });
    this.bytes += bytes - (replaced?.bytes ?? 0);
  }

  /** An export starts: nothing is evicted, not even for the disk ledger, until it ends (trim). */
  hold(): void {
    this.exporting++;
  }

  /** Evicts the least recently used entries past the bound (an export ended). */
  trim(): Promise<void> {
    this.exporting = Math.max(0, this.exporting - 1);
    return this.exporting > 0 ? Promise.resolve() : this.evictTo(this.maxBytes);
  }

  /** A new bound (the setting changed): applied at once, or when the export being made ends. */
  async bound(maxBytes: number): Promise<void> {
    this.maxBytes = maxBytes;
    if (this.exporting === 0) await this.evictTo(maxBytes);
  }

  /** Gives disk back to other work (the disk ledger asks), least recently used first; none while an export runs. */
  async reclaim(bytes: number): Promise<number> {
    if (this.exporting > 0) return 0;
    const before = this.bytes;
    await this.evictTo(Math.max(0, this.bytes - bytes));
    return before - this.bytes;
  }

  /**
   * The gain most of `segments`' encodes of `kind` were made at, the latest of equals: the last
   * export's of the book, which a small change keeps (segments.ts). Undefined when none is kept.
   */
  usualGain(segments: readonly string[], kind: string): number | undefined {
    const wanted = new Set(segments);
    // per gain: how many of the segments have it, and its last use (two gains as common: the later)
    const votes = new Map<number, { count: number; used: number }>();
    for (const entry of this.entries.values()) {
      if (entry.kind !== kind || entry.gainDb === null || !wanted.has(entry.segment)) continue;
      const vote = votes.get(entry.gainDb) ?? { count: 0, used: 0 };
      votes.set(entry.gainDb, { count: vote.count + 1, used: Math.max(vote.used, entry.used) });
    }
    return [...votes].sort(([, a], [, b]) => b.count - a.count || b.used - a.used)[0]?.[0];
  }

  /** Bytes held. */
  size(): number {
    return this.bytes;
  }

  private filesOf(key: string, format: FramesFormat | undefined): string[] {
    const json = path.join(this.dir, `${key}.json`);
    return format ? [json, this.framesFile(key, format)] : [json];
  }

  private async touch(key: string): Promise<void> {
    const entry = this.entries.get(key)!;
    entry.used = ++this.lastUse;
    const now = new Date();
    await Promise.all(this.filesOf(key, framesOf(entry.kind)).map((f) => utimes(f, now, now)));
  }

  private async drop(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (entry) this.bytes -= entry.bytes;
    this.entries.delete(key);
    const files = (['aac', 'mp3'] as const).flatMap((f) => [this.framesFile(key, f), this.partialFrames(key, f)]);
    await Promise.all([...this.filesOf(key, undefined), ...files].map((f) => rm(f, { force: true })));
  }

  private async evictTo(bytes: number): Promise<void> {
    if (this.bytes <= bytes) return;
    const oldest = [...this.entries].sort((a, b) => a[1].used - b[1].used);
    for (const [key] of oldest) {
      if (this.bytes <= bytes) break;
      await this.drop(key);
    }
  }
}
