/** A file's bytes as base64, for JSON bodies (a cover image, an EPUB manuscript). */
export async function base64Of(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  // in slices: String.fromCharCode takes its bytes as arguments, and a file has millions
  for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  return btoa(binary);
}
