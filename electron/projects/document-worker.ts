/**
 * Entry of the document thread (built to dist/document-worker.mjs): a manuscript file cut into
 * chapters away from the gateway's event loop, at a low priority. The thread has a heap limit and
 * a deadline (document-reader.ts); what it can tell itself (a file that is not its format, a zip
 * over its budget) it answers as a refusal, which crosses to the gateway as data.
 */
import { lowerThisThreadsPriority } from '../engines/thread-priority';
import { readText, type ReadBook } from './chapters';
import { readEpub } from './epub';
import { ManuscriptTooLarge, UnreadableManuscript, type ZipLimits } from './zip';

export type DocumentTask =
  | { format: 'docx' | 'epub'; bytes: Uint8Array; untitled: string; zip: ZipLimits }
  | { format: 'text'; text: string; markdown: boolean; untitled: string };

export type DocumentReply = { book: ReadBook } | { refused: 'unreadable' | 'too_large'; message: string };

lowerThisThreadsPriority();

export default async function read(task: DocumentTask): Promise<DocumentReply> {
  try {
    if (task.format === 'text') return { book: readText(task.text, task) };
    if (task.format === 'epub') return { book: readEpub(task.bytes, task.untitled, task.zip) };
    // mammoth loads with the first Word manuscript
    return { book: await (await import('./docx')).readDocx(task.bytes, task.untitled, task.zip) };
  } catch (error) {
    if (error instanceof UnreadableManuscript) return { refused: 'unreadable', message: error.message };
    if (error instanceof ManuscriptTooLarge) return { refused: 'too_large', message: error.message };
    // a stack or string length exhausted by the file's shape (elements nested deep, one huge run of text)
    if (error instanceof RangeError) return { refused: 'too_large', message: `The file is too large to read: ${error.message}.` };
    throw error;
  }
}
