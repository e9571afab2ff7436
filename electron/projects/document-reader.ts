/**
 * Manuscript files are read on a thread of their own (document-worker.ts), one at a time, never on
 * the gateway's event loop: a Word file of 30 MB of empty paragraphs held the loop for 133 s and
 * then exhausted the process's heap. The thread has a heap limit and a deadline; past either it is
 * stopped, its memory goes with it, and the request gets 413 naming the limit. An idle thread
 * exits after a moment, so what a large book took is returned too.
 */
import { fileURLToPath } from 'node:url';
import { Piscina } from 'piscina';
import { ApiError, DOCUMENT_LIMITS } from '../contract';
import type { ReadBook } from './chapters';
import type { DocumentReply, DocumentTask } from './document-worker';

export type DocumentLimits = { [K in keyof typeof DOCUMENT_LIMITS]: number };

/** An idle reading thread exits after this long, with its heap. */
const IDLE_MS = 2_000;
const MB = 1024 * 1024;

/** What a manuscript file is, as its messages name it. */
export type DocumentFormat = 'docx' | 'epub' | 'md' | 'txt';
const LABELS: Record<DocumentFormat, string> = { docx: 'Word document', epub: 'EPUB', md: 'Markdown file', txt: 'text file' };

export class DocumentReader {
  private readonly pool: Piscina;
  private reading = false;
  private readonly waiting: (() => void)[] = [];

  /** `workerFile`: the built dist/document-worker.mjs. */
  constructor(
    workerFile: string | URL,
    private readonly limits: DocumentLimits = DOCUMENT_LIMITS,
  ) {
    this.pool = new Piscina({
      filename: workerFile instanceof URL ? fileURLToPath(workerFile) : workerFile,
      minThreads: 0,
      maxThreads: 1,
      idleTimeout: IDLE_MS,
      resourceLimits: { maxOldGenerationSizeMb: limits.heapMb },
    });
  }

  /** A file's chapters, structure and metadata; throws ApiError (400, 413, or 429 when too many wait). */
  async read(format: DocumentFormat, file: { bytes: Uint8Array } | { text: string }, untitled: string): Promise<ReadBook> {
    const task: DocumentTask =
      'text' in file
        ? { format: 'text', text: file.text, markdown: format === 'md', untitled }
        : {
            format: format === 'docx' ? 'docx' : 'epub',
            bytes: file.bytes,
            untitled,
            zip: { inflatedBytes: this.limits.inflatedMb * MB, files: this.limits.zipFiles },
          };
    await this.turn();
    try {
      const reply = await this.run(task, LABELS[format]);
      if ('book' in reply) return reply.book;
      throw new ApiError(reply.refused === 'too_large' ? 'manuscript_too_large' : 'invalid_request', reply.message);
    } finally {
      this.release();
    }
  }

  close(): Promise<void> {
    return this.pool.destroy();
  }

  private async run(task: DocumentTask, label: string): Promise<DocumentReply> {
    const deadline = AbortSignal.timeout(this.limits.seconds * 1000);
    try {
      return (await this.pool.run(task, { signal: deadline })) as DocumentReply;
    } catch (error) {
      if (deadline.aborted) {
        throw new ApiError(
          'manuscript_too_large',
          `Reading the ${label} took over ${this.limits.seconds} s, the limit; save it in smaller parts, or as plain text.`,
        );
      }
      if ((error as NodeJS.ErrnoException).code === 'ERR_WORKER_OUT_OF_MEMORY') {
        throw new ApiError(
          'manuscript_too_large',
          `Reading the ${label} needs over ${this.limits.heapMb} MB of memory, the limit; save it in smaller parts, or as plain text.`,
        );
      }
      throw error;
    }
  }

  /** Waits for the thread; refuses when DOCUMENT_LIMITS.waiting files wait already. */
  private async turn(): Promise<void> {
    if (!this.reading) {
      this.reading = true;
      return;
    }
    if (this.waiting.length >= this.limits.waiting) {
      throw new ApiError('queue_full', `${this.waiting.length} manuscripts are waiting to be read; try again in a few seconds.`, {
        retryAfterS: 5,
      });
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.reading = false;
  }
}
