/**
 * The document thread against files over its limits, with small limits so that each is reached in
 * a moment: the heap, the deadline, the queue. The built worker (dist/document-worker.mjs) runs.
 */
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError, DOCUMENT_LIMITS } from '../contract';
import { docx } from '../testing/docx';
import { emptyParagraphsDocx, nestedDocx } from '../testing/hostile-documents';
import { DocumentReader, type DocumentLimits } from './document-reader';

const WORKER = path.resolve('dist/document-worker.mjs');
let reader: DocumentReader | undefined;
afterEach(() => reader?.close());

const start = (limits: Partial<DocumentLimits> = {}) => (reader = new DocumentReader(WORKER, { ...DOCUMENT_LIMITS, ...limits }));

async function refusal(promise: Promise<unknown>): Promise<{ code: string; status: number; message: string }> {
  const error = await promise.then(
    () => new Error('read, though it should have been refused'),
    (thrown: unknown) => thrown,
  );
  if (!(error instanceof ApiError)) throw error;
  return { code: error.code, status: error.status, message: error.message };
}

describe('DocumentReader', () => {
  it('reads each format on its thread', async () => {
    const documents = start();
    expect((await documents.read('md', { text: '# One\nA.\n# Two\nB.' }, 'Book')).chapters).toEqual([
      { title: 'One', text: 'One\n\nA.' },
      { title: 'Two', text: 'Two\n\nB.' },
    ]);
    expect((await documents.read('docx', { bytes: docx([{ runs: ['Hello.'] }]) }, 'Book')).chapters).toEqual([
      { title: 'Book', text: 'Hello.' },
    ]);
  });

  it('stops a thread past its heap limit and answers 413 naming it', async () => {
    // 2 MB of empty paragraphs: mammoth needs 550 MB and 5.5 s of CPU for them
    const documents = start({ heapMb: 64 });
    expect(await refusal(documents.read('docx', { bytes: emptyParagraphsDocx(2) }, 'Book'))).toEqual({
      code: 'manuscript_too_large',
      status: 413,
      message: 'Reading the Word document needs over 64 MB of memory, the limit; save it in smaller parts, or as plain text.',
    });
    // the next file gets a fresh thread
    expect((await documents.read('txt', { text: 'Still reading.' }, 'Book')).chapters).toEqual([{ title: 'Book', text: 'Still reading.' }]);
  });

  it('stops a thread past its deadline and answers 413 naming it', async () => {
    const documents = start({ seconds: 1 });
    expect(await refusal(documents.read('docx', { bytes: emptyParagraphsDocx(2) }, 'Book'))).toMatchObject({
      code: 'manuscript_too_large',
      message: 'Reading the Word document took over 1 s, the limit; save it in smaller parts, or as plain text.',
    });
  });

  it('answers files the thread refuses with their reason', async () => {
    const documents = start({ inflatedMb: 1 });
    expect(await refusal(documents.read('docx', { bytes: emptyParagraphsDocx(2) }, 'Book'))).toMatchObject({
      code: 'manuscript_too_large',
      message: expect.stringContaining('expands to over 1 MB'),
    });
    expect(await refusal(documents.read('epub', { bytes: new Uint8Array(100) }, 'Book'))).toMatchObject({
      code: 'invalid_request',
      message: expect.stringContaining('not a readable EPUB'),
    });
    // mammoth's reader recurses per level: its stack or the heap gives out, either a refusal
    expect([400, 413]).toContain((await refusal(documents.read('docx', { bytes: nestedDocx(50_000) }, 'Book'))).status);
  });

  it('reads one file at a time, lets a few wait, and refuses more with 429', async () => {
    const documents = start({ waiting: 1 });
    const text = { text: 'Words.' };
    const first = documents.read('txt', text, 'A');
    const second = documents.read('txt', text, 'B');
    expect(await refusal(documents.read('txt', text, 'C'))).toMatchObject({ code: 'queue_full', status: 429 });
    expect((await first).chapters[0]!.title).toBe('A');
    expect((await second).chapters[0]!.title).toBe('B');
  });
});
