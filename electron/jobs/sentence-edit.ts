import { open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import { resampleWhole } from '../audio/encode/resampler';
import type { Pcm } from '../audio/pcm';
import { durationSeconds, pcmBytes, WAV_HEADER_BYTES, wavHeader } from '../audio/wav';
import { ApiError } from '../contract';
import { PRIVATE_FILE_MODE } from '../storage/private-files';
import type { DiskBudget } from './disk-budget';
import type { EngineRegistry } from '../engines/registry';
import { pauseAfter } from './chunk-layout';
import { synthesizeChunks } from './chunk-synthesis';
import type { RenderCache } from './render-cache/cache';
import { cachedSynthesizer } from './render-cache/synthesizer';
import { PARTIAL, type JobFiles } from './files';
import { sentenceSamples, withShown, type SentenceSpan } from './sentence-spans';
import type { ChunkRow, JobRow } from './rows';
import type { JobStore } from './store';

/** The new wording of one sentence: as sent (for its place in the text) and as the engine reads it. */
export interface SentenceEdit {
  /** The sentence's index in the job's timings. */
  sentence: number;
  /** Its length as sent, in code points. */
  writtenLength: number;
  /** As people see it (whitespace runs one space). */
  written: string;
  /** As spoken (after the lexicon). */
  spoken: string;
}

const COPY_BLOCK = 1 << 20;

const EDIT_WORDING = {
  what: 'This edit',
  advice: "The job's audio is written anew beside the old one: free some space, or delete finished jobs.",
};

/**
 * Re-renders the chunk that holds one sentence of a finished WAV job, with that sentence's new
 * text, and splices its audio into the job's WAV in place of the old chunk's: every other sample
 * is copied as it was, byte for byte. The chunk's record (text, length, sentences) and the later
 * chunks' offsets in the text follow. Chunk files are not kept after a job is joined, so the job's
 * WAV is the source: a job stored in another format is refused (format_unavailable). The new WAV
 * is written beside the old one: its whole size is reserved in the disk ledger first (507 when it
 * does not fit), and every write asks it. Answers the job after the edit and where the sentence
 * was in its text (code points).
 */
export async function reRenderSentence(
  deps: { store: JobStore; files: JobFiles; registry: EngineRegistry; disk: DiskBudget; cache?: RenderCache | undefined },
  job: JobRow,
  edit: SentenceEdit,
  signal: AbortSignal,
): Promise<{ job: JobRow; span: [number, number] }> {
  const { store, files } = deps;
  if (job.format !== 'wav') {
    throw new ApiError('format_unavailable', `Job ${job.id} is stored as ${job.format}; only a WAV job can have a sentence re-rendered.`);
  }
  const layout = store.timings.layout(job.id);
  if (layout.some((chunk) => chunk.sentences === null)) {
    throw new ApiError('timings_unavailable', `Job ${job.id} was made by a version of Orator that did not keep sentence timings.`);
  }
  const { chunkIdx, spanIdx } = locate(
    layout.map((c) => c.sentences!.length),
    edit.sentence,
  );
  const chunk = layout[chunkIdx]!;
  const spans = chunk.sentences!;
  const [textStart, textEnd, chunkStart, chunkEnd] = spans[spanIdx]!;
  const text = chunk.text.slice(0, chunkStart) + edit.spoken + chunk.text.slice(chunkEnd);
  const textShift = edit.writtenLength - (textEnd - textStart);
  const chunkShift = edit.spoken.length - (chunkEnd - chunkStart);
  const sentences = spans.map((span, k): SentenceSpan => {
    if (k < spanIdx) return span;
    if (k === spanIdx)
      return withShown([textStart, textStart + edit.writtenLength, chunkStart, chunkStart + edit.spoken.length], text, edit.written);
    return [span[0] + textShift, span[1] + textShift, span[2] + chunkShift, span[3] + chunkShift, ...span.slice(4)] as SentenceSpan;
  });

  // through the render cache, whatever the job: an edit back is not synthesized again
  const engines = (id: string, chunks: ChunkRow[], aborted: AbortSignal) => synthesizeChunks(deps, id, chunks, aborted);
  const synthesize = deps.cache ? cachedSynthesizer({ ...deps, cache: deps.cache }, engines, 'every-job') : engines;
  const [produced] = await synthesize(job.id, [{ ...store.chunk(job.id, chunkIdx)!, text }], signal);
  // at the job's rate, as the runner saves a chunk of another voice (SSML)
  const sampleRate = job.sample_rate!;
  const pcm: Pcm = { sampleRate, samples: await resampleWhole(produced!.samples, produced!.sampleRate, sampleRate) };
  const before = layout
    .slice(0, chunkIdx)
    .reduce((sum, c, i) => sum + (c.samples ?? 0) + pauseAfter(c.pause_ms, i === layout.length - 1, sampleRate), 0);
  // written anew beside the old WAV: its whole size is reserved first (507 when it does not fit, before or while it is written)
  const file = files.audioFile(job.id, 'wav');
  const newSize = (await stat(file)).size + (pcm.samples.length - (chunk.samples ?? 0)) * 2;
  const dataBytes = await deps.disk.withRoom(newSize, EDIT_WORDING, (write) => spliceWav(file, pcm, before, chunk.samples ?? 0, write));

  store.timings.replaceChunk(job.id, chunkIdx, {
    text,
    samples: pcm.samples.length,
    sentences,
    sentenceSamples: sentenceSamples(text, sentences, pcm),
    textShift,
    audioBytes: WAV_HEADER_BYTES + dataBytes,
    durationS: durationSeconds(sampleRate, dataBytes),
  });
  // drawn again from the new WAV at the next request (peaks-file.ts)
  await Promise.all([files.peaksFile(job.id), ...files.legacyPeaksFiles(job.id)].map((f) => rm(f, { force: true })));
  return { job: store.get(job.id)!, span: [textStart, textEnd] };
}

/** Which chunk, and which of its sentences, is the job's sentence `index`. */
function locate(counts: number[], index: number): { chunkIdx: number; spanIdx: number } {
  let left = index;
  for (const [chunkIdx, count] of counts.entries()) {
    if (left < count) return { chunkIdx, spanIdx: left };
    left -= count;
  }
  const total = counts.reduce((a, b) => a + b, 0);
  throw new ApiError('not_found', `The job has ${total} sentences (0 to ${total - 1}); there is no sentence ${index}.`);
}

/**
 * Writes the WAV anew, under a temporary name then renamed (a reader never sees half a file): the
 * samples before `at`, the new chunk in place of the `replaced` samples there, the rest. Returns
 * the new length of its data.
 */
async function spliceWav(file: string, chunk: Pcm, at: number, replaced: number, room: Room): Promise<number> {
  const source = await open(file, 'r');
  try {
    const { size } = await source.stat();
    const oldData = size - WAV_HEADER_BYTES;
    const dataBytes = oldData - replaced * 2 + chunk.samples.byteLength;
    const target = await open(file + PARTIAL, 'w', PRIVATE_FILE_MODE);
    const write = async (bytes: Uint8Array) => {
      await room(bytes.length);
      await target.write(bytes);
    };
    try {
      await write(wavHeader(chunk.sampleRate, dataBytes));
      await copyRange(source, write, WAV_HEADER_BYTES, WAV_HEADER_BYTES + at * 2);
      await write(pcmBytes(chunk.samples));
      await copyRange(source, write, WAV_HEADER_BYTES + (at + replaced) * 2, size);
    } catch (error) {
      await target.close();
      await rm(file + PARTIAL, { force: true });
      throw error;
    }
    await target.close();
    await rename(file + PARTIAL, file);
    return dataBytes;
  } finally {
    await source.close();
  }
}

/** Asks the disk ledger before a write of `bytes`. */
type Room = (bytes: number) => Promise<void>;

async function copyRange(source: FileHandle, write: (bytes: Uint8Array) => Promise<void>, from: number, to: number): Promise<void> {
  const buffer = Buffer.alloc(COPY_BLOCK);
  for (let at = from; at < to;) {
    const { bytesRead } = await source.read(buffer, 0, Math.min(COPY_BLOCK, to - at), at);
    if (bytesRead === 0) break;
    await write(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
}
