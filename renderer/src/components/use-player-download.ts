import { useState } from 'react';
import { API, jobAudioFileName } from '../api/contract';
import { audioFileName, saveBlob } from '../lib/download';
import { describeError } from '../lib/format';
import { useApp } from '../store';
import type { PlayerSource } from '../store/player-slice';

/** Saves what the player plays (inline audio as it came, a job's file as stored); its failure shows until the source changes. */
export function usePlayerDownload(source: PlayerSource) {
  const client = useApp((s) => s.client);
  const [failure, setFailure] = useState<{ key: number; message: string } | null>(null);
  const error = failure?.key === source.key ? failure.message : null;

  const save = async () => {
    setFailure(null);
    try {
      if (source.kind === 'audio') saveBlob(source.audio.blob, audioFileName(source.audio.voice));
      else if (client)
        saveBlob(
          await client.blob(API.getJobAudio, { params: { id: source.jobId } }),
          jobAudioFileName(source.jobId, source.job.audio?.format),
        );
    } catch (caught) {
      setFailure({ key: source.key, message: describeError(caught) });
    }
  };

  return { save, error };
}
