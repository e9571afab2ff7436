import { useState } from 'react';
import { API, jobAudioFileName, type Job, type OutputFormat } from '../api/contract';
import { saveBlob } from '../lib/download';
import { describeError, formatBytes } from '../lib/format';
import { useApp } from '../store';

/** A job's audio as a download: in its own format or another (encoded by the gateway then), and what went wrong. */
export function useJobDownload(job: Job) {
  // the client through the hook: a new key (settings) reaches the row's download at once
  const client = useApp((s) => s.client);
  const [error, setError] = useState<string | null>(null);
  const [format, setFormat] = useState<OutputFormat | undefined>();
  const ownFormat = job.audio?.format;
  const chosen = format ?? ownFormat;
  // the stored file's size; another format is encoded at download, its size unknown until then
  const size = job.audio && chosen === ownFormat ? formatBytes(job.audio.bytes) : '';

  const save = async () => {
    if (!client) return;
    setError(null);
    try {
      const other = chosen === ownFormat ? undefined : chosen;
      saveBlob(
        await client.blob(API.getJobAudio, { params: { id: job.job_id }, query: { format: other } }),
        jobAudioFileName(job.job_id, chosen),
      );
    } catch (failure) {
      setError(describeError(failure));
    }
  };

  return { chosen, choose: setFormat, size, save, error };
}

export type JobDownload = ReturnType<typeof useJobDownload>;
