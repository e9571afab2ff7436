import { BINARY_MANUSCRIPTS, type ManuscriptFile } from '../api/contract';
import { base64Of } from './base64';

/** A chosen file as the gateway takes a manuscript: its text, or (an EPUB) its bytes in base64. */
export async function manuscriptFile(file: File): Promise<ManuscriptFile> {
  const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (BINARY_MANUSCRIPTS.includes(extension)) return { name: file.name, data: await base64Of(file) };
  return { name: file.name, text: await file.text() };
}
