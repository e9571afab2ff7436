/** Names shared by the gateway and its clients: voice ids, loopback hosts, file names. */
import { AUDIO_MEDIA, DEFAULT_OUTPUT_FORMAT, type AudioFormat } from './formats';

/** A voice id is "<engine>:<voice>" (the voice part may hold colons); null when it is not one. */
export function splitVoiceId(voiceId: string): { engine: string; name: string } | null {
  const at = voiceId.indexOf(':');
  if (at <= 0 || at === voiceId.length - 1) return null;
  return { engine: voiceId.slice(0, at), name: voiceId.slice(at + 1) };
}

/** Names of this machine's loopback interface, as a host (IPv6 without brackets). */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', 'localhost', '::1'];

/** The file name a job's audio is saved under, by the gateway's answer and the studio alike. */
export function jobAudioFileName(jobId: string, format: AudioFormat = DEFAULT_OUTPUT_FORMAT): string {
  return `orator-job-${jobId.slice(0, 8)}.${AUDIO_MEDIA[format].extension}`;
}

/** The file name an inline answer suggests (`curl -OJ`, a browser's save). */
export function speechFileName(format: AudioFormat): string {
  return `orator-speech.${AUDIO_MEDIA[format].extension}`;
}
