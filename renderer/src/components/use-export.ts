import { API } from '../api/contract';
import { useCallback, useEffect, useState } from 'react';
import type { Export, SubtitleFormat } from '../api/contract';
import { saveBlob } from '../lib/download';
import { useApp } from '../store';

const POLL_MS = 500;

/**
 * An audiobook export being made (docs/audiobook.md), followed as the job list follows jobs: polled
 * while it runs; then its file to download. `onError` must keep its identity between renders.
 */
export function useExport(onError: (error: unknown) => void) {
  const client = useApp((s) => s.client);
  const [made, setMade] = useState<Export | null>(null);
  const running = made?.status === 'running' ? made.export_id : null;
  useEffect(() => {
    if (!running || !client) return;
    const timer = setInterval(() => client.call(API.getExport, { params: { id: running } }).then(setMade, onError), POLL_MS);
    return () => clearInterval(timer);
  }, [running, client, onError]);

  /** Follows the export the gateway just accepted. */
  const follow = (exportId: string) => client?.call(API.getExport, { params: { id: exportId } }).then(setMade, onError);
  const download = () => {
    if (client && made?.file)
      client.blob(API.getExportFile, { params: { id: made.export_id } }).then((blob) => saveBlob(blob, made.file!.name), onError);
  };
  /** The book's captions, named as the audiobook with the caption format's extension. */
  const subtitles = (format: SubtitleFormat) => {
    if (!client || !made?.file) return;
    const name = made.file.name.replace(/\.[a-z0-9]+$/, `.${format}`);
    client
      .blob(API.getExportSubtitles, { params: { id: made.export_id }, query: { format } })
      .then((blob) => saveBlob(blob, name), onError);
  };
  /** Drops the last export from view (the dialog opens again for another). */
  const forget = useCallback(() => setMade(null), []);
  return { made, running, follow, download, subtitles, forget };
}
