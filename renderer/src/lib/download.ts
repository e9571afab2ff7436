import { splitVoiceId } from '../api/contract';

/** Saves a blob under a file name through a temporary object URL. */
export function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = url;
  a.download = filename;
  a.rel = 'noopener';
  document.body.append(a);
  a.click();
  a.remove();
  // The download has started from the URL by now; a delay keeps slower browsers safe.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** A file name from the voice and time, e.g. "orator-en-us-2026-11-21-2355.wav". */
export function audioFileName(voiceId: string, date = new Date()): string {
  const voice = (splitVoiceId(voiceId)?.name ?? voiceId).replace(/[^a-z0-9-]+/gi, '-') || 'audio';
  const stamp = date.toISOString().slice(0, 16).replace('T', '-').replace(':', '');
  return `orator-${voice}-${stamp}.wav`;
}
