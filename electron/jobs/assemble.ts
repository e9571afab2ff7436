import { open, readFile, rename } from 'node:fs/promises';
import { WAV_HEADER_BYTES, wavHeader } from '../audio/wav';
import type { ChunkRow } from './store';
import { PARTIAL } from './files';

/**
 * Joins a job's chunk audio into one WAV with the chunks' pauses between them (none after
 * the last). Written under a temporary name and renamed, so a half-written file is never served.
 */
export async function assembleWav(target: string, sampleRate: number, chunks: ChunkRow[], chunkFile: (idx: number) => string): Promise<number> {
  const pauses = chunks.map((c, i) => (i === chunks.length - 1 ? 0 : Math.round((c.pause_ms / 1000) * sampleRate)));
  const dataBytes = chunks.reduce((sum, c, i) => sum + 2 * ((c.samples ?? 0) + pauses[i]!), 0);
  const partial = target + PARTIAL;
  const file = await open(partial, 'w');
  try {
    let position = 0;
    const write = async (bytes: Buffer) => {
      await file.write(bytes, 0, bytes.length, position);
      position += bytes.length;
    };
    await write(wavHeader(sampleRate, dataBytes));
    for (const [i, chunk] of chunks.entries()) {
      await write(await readFile(chunkFile(chunk.idx)));
      if (pauses[i]) await write(Buffer.alloc(2 * pauses[i]!));
    }
    await file.sync();
  } finally {
    await file.close();
  }
  await rename(partial, target);
  return WAV_HEADER_BYTES + dataBytes;
}
