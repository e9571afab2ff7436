import { open, readFile, rename } from 'node:fs/promises';
import { PeakAccumulator } from '../audio/peaks';
import { int16View, WAV_HEADER_BYTES, wavHeader } from '../audio/wav';
import { PRIVATE_FILE_MODE } from '../storage/private-files';
import type { ChunkLayout } from './store';
import { PARTIAL } from './files';
import { peaksBody, writeWhole } from './peaks-file';

export interface AssembledAudio {
  bytes: number;
}

/** Silence after each chunk, in samples: none after the last. */
export function pauseSamples(chunks: ChunkLayout[], sampleRate: number): number[] {
  return chunks.map((c, i) => (i === chunks.length - 1 ? 0 : Math.round((c.pause_ms / 1000) * sampleRate)));
}

/** The size of the joined audio, header excluded. */
export function wavDataBytes(chunks: ChunkLayout[], sampleRate: number): number {
  const pauses = pauseSamples(chunks, sampleRate);
  return chunks.reduce((sum, c, i) => sum + 2 * ((c.samples ?? 0) + pauses[i]!), 0);
}

/**
 * Joins a job's chunk audio into one WAV with the chunks' pauses between them (none after
 * the last), and writes its waveform peaks beside it, as the /peaks answer. Both are written
 * under temporary names and renamed, so a half-written file is never served.
 */
export async function assembleWav(
  target: { wav: string; peaks: string },
  sampleRate: number,
  chunks: ChunkLayout[],
  chunkFile: (idx: number) => string,
): Promise<AssembledAudio> {
  const pauses = pauseSamples(chunks, sampleRate);
  const dataBytes = wavDataBytes(chunks, sampleRate);
  const peaks = new PeakAccumulator(sampleRate);
  const file = await open(target.wav + PARTIAL, 'w', PRIVATE_FILE_MODE);
  try {
    let position = 0;
    const write = async (bytes: Buffer) => {
      await file.write(bytes, 0, bytes.length, position);
      position += bytes.length;
    };
    await write(wavHeader(sampleRate, dataBytes));
    for (const [i, chunk] of chunks.entries()) {
      const pcm = await readFile(chunkFile(chunk.idx));
      peaks.push(int16View(pcm));
      await write(pcm);
      if (pauses[i]) {
        await write(Buffer.alloc(2 * pauses[i]!));
        peaks.pushSilence(pauses[i]!);
      }
    }
    await file.sync();
  } finally {
    await file.close();
  }
  await writeWhole(target.peaks, peaksBody(sampleRate, dataBytes, peaks.finish()));
  await rename(target.wav + PARTIAL, target.wav);
  return { bytes: WAV_HEADER_BYTES + dataBytes };
}
