import { BINARY_MANUSCRIPTS, type ManuscriptFile } from '../api/contract';

/** A chosen file as the gateway takes a manuscript: its text, or (an EPUB) its bytes in base64. */
export async function manuscriptFile(file: File): Promise<ManuscriptFile> {
  const extension = /\.([^.]+)$/.exec(file.name)?.[1]?.toLowerCase() ?? '';
  if (!BINARY_MANUSCRIPTS.includes(extension)) return { name: file.name, text: await file.text() };
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // in slices: String.fromCharCode takes its bytes as arguments, and a book has millions
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return { name: file.name, data: btoa(binary) };
}
