/** What every format's back end does with audio at the rate its codec takes. */
export interface EncoderSink {
  /** Encodes samples; resolves with the bytes that are ready (possibly none). */
  push(samples: Int16Array): Promise<Uint8Array>;
  /** Flushes the codec and the container; resolves with the last bytes. */
  finish(): Promise<Uint8Array>;
  /** Drops the encoder without finishing it (a client went away, a job was cancelled). */
  close(): Promise<void>;
}

export function concatBytes(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  const bytes = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}
