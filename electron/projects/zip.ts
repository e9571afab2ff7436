import { unzipSync } from 'fflate';

/** Uncompressed bytes a zipped manuscript (EPUB, DOCX) may expand to: a zip bomb stops here. */
export const MANUSCRIPT_MAX_UNZIPPED = 64 * 1024 * 1024;

/** A manuscript file that cannot be read as its format; its message says why (a 400). */
export class UnreadableManuscript extends Error {
  override name = 'UnreadableManuscript';
}

/** The files of a zipped manuscript, refused once they expand past MANUSCRIPT_MAX_UNZIPPED. */
export function unzipBounded(bytes: Uint8Array, format: string): Record<string, Uint8Array> {
  let total = 0;
  try {
    return unzipSync(bytes, {
      filter: (file) => {
        total += file.originalSize;
        if (total > MANUSCRIPT_MAX_UNZIPPED) {
          throw new UnreadableManuscript(`The ${format} expands to over ${MANUSCRIPT_MAX_UNZIPPED / 1024 / 1024} MB.`);
        }
        return true;
      },
    });
  } catch (error) {
    if (error instanceof UnreadableManuscript) throw error;
    throw new UnreadableManuscript(`The file is not a readable ${format} (zip): ${(error as Error).message}.`);
  }
}
