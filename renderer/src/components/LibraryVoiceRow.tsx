import { useState } from 'react';
import type { LibraryVoice } from '../api/contract';

interface Props {
  voice: LibraryVoice;
  /** The admin token is there: install and remove are offered. */
  canChange: boolean;
  onInstall(acceptLicense: boolean): void;
  onRemove(): void;
  onTry(): void;
}

const megabytes = (bytes: number | null) => (bytes === null ? 'size unknown' : `${(bytes / 2 ** 20).toFixed(0)} MB`);

/** One voice of the library: what it is, its licence, and what can be done with it in its state. */
export function LibraryVoiceRow({ voice, canChange, onInstall, onRemove, onTry }: Props) {
  const [confirming, setConfirming] = useState(false);
  const working = voice.state === 'queued' || voice.state === 'installing';
  const install = () => (voice.license.accept_required ? setConfirming(true) : onInstall(false));
  return (
    <li className="library-voice" data-voice={voice.id}>
      <div>
        <strong>{voice.name}</strong>{' '}
        <span className="muted small">
          {voice.language} · {voice.quality.replace('_', ' ')} · {megabytes(voice.size_bytes)} ·{' '}
          <a href={voice.license.url} target="_blank" rel="noreferrer">
            {voice.license.id === 'unknown' ? 'licence: see the model card' : voice.license.id}
          </a>
        </span>
      </div>
      {confirming && (
        <div className="library-license" role="group" aria-label={`Licence of ${voice.name}`}>
          <p className="small">
            {voice.license.id === 'unknown' ? 'This voice’s licence is not known to Orator' : `This voice is under ${voice.license.id}`}: it
            may limit what the audio you make with it can be used for (non-commercial or research only). Read it before you install.
          </p>
          <button
            type="button"
            className="small"
            onClick={() => {
              setConfirming(false);
              onInstall(true);
            }}
          >
            Accept and install
          </button>{' '}
          <button type="button" className="small secondary" onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      <div className="library-actions">
        {working && (
          <>
            <progress max={voice.bytes_total ?? 1} value={voice.bytes_done ?? 0} aria-label={`Installing ${voice.name}`} />
            <span className="small muted">
              {voice.state === 'queued' ? 'Waiting' : `${megabytes(voice.bytes_done ?? 0)} of ${megabytes(voice.bytes_total ?? null)}`}
            </span>
            {canChange && (
              <button type="button" className="small secondary" onClick={onRemove}>
                Cancel
              </button>
            )}
          </>
        )}
        {voice.state === 'installed' && (
          <>
            <button type="button" className="small" onClick={onTry}>
              Try it
            </button>
            {canChange && (
              <button type="button" className="small secondary" onClick={onRemove}>
                Remove
              </button>
            )}
          </>
        )}
        {(voice.state === 'available' || voice.state === 'failed') && !confirming && (
          <button
            type="button"
            className="small"
            disabled={!canChange || !voice.pinned}
            onClick={install}
            title={voice.pinned ? undefined : 'Not pinned: the catalog has no hash for it'}
          >
            Install
          </button>
        )}
        {voice.state === 'failed' && <span className="error small">{voice.error}</span>}
      </div>
    </li>
  );
}
