import { useState } from 'react';
import type { LibraryVoice } from '../api/contract';
import { formatBytes } from '../lib/format';

interface Props {
  voice: LibraryVoice;
  /** The admin token is there: install and remove are offered. */
  canChange: boolean;
  /** Its sample is being made. */
  trying: boolean;
  /** Why its sample could not be made. */
  tryError: string | undefined;
  onInstall(acceptLicense: boolean): void;
  onRemove(): void;
  onTry(): void;
}

const size = (bytes: number | null) => (bytes === null ? 'size unknown' : formatBytes(bytes));

const INSTALL_TITLES: Record<LibraryVoice['verification'], string | undefined> = {
  catalog: undefined,
  checksum_list: 'Verified against the publisher’s checksum list, read when it installs',
  none: 'Not pinned: the catalog has no hash for it',
};

/** Where an installed voice's hashes came from. */
function verifiedBy(voice: LibraryVoice): string | undefined {
  const source = voice.hash_source;
  if (!source) return undefined;
  if (source.kind === 'catalog') return 'verified: hash pinned in the catalog';
  return `verified: release checksum list, fetched ${source.fetched_at.slice(0, 10)}`;
}

/** One voice of the library: what it is, its licence, and what can be done with it in its state. */
export function LibraryVoiceRow({ voice, canChange, trying, tryError, onInstall, onRemove, onTry }: Props) {
  const [confirming, setConfirming] = useState(false);
  const working = voice.state === 'queued' || voice.state === 'installing';
  const install = () => (voice.license.accept_required ? setConfirming(true) : onInstall(false));
  return (
    <li className="library-voice" data-voice={voice.id} data-state={voice.state}>
      <div>
        <strong>{voice.name}</strong>{' '}
        <span className="muted small">
          {voice.language} · {voice.quality.replace('_', ' ')} · {size(voice.size_bytes)} ·{' '}
          <a href={voice.license.url} target="_blank" rel="noreferrer">
            {voice.license.id === 'unknown' ? 'licence: see the model card' : voice.license.id}
          </a>
          {voice.state === 'installed' && voice.hash_source && <> · {verifiedBy(voice)}</>}
        </span>
      </div>
      {confirming && (
        <LicenceConfirm
          voice={voice}
          onAnswer={(accepted) => {
            setConfirming(false);
            if (accepted) onInstall(true);
          }}
        />
      )}
      <div className="library-actions">
        {working && (
          <>
            <progress max={voice.bytes_total ?? 1} value={voice.bytes_done ?? 0} aria-label={`Installing ${voice.name}`} />
            <span className="small muted">
              {voice.state === 'queued' ? 'Waiting' : `${size(voice.bytes_done ?? 0)} of ${size(voice.bytes_total ?? null)}`}
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
            <button type="button" className="small" onClick={onTry} disabled={trying}>
              {trying ? 'Speaking…' : 'Try it'}
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
            disabled={!canChange || voice.verification === 'none'}
            onClick={install}
            title={INSTALL_TITLES[voice.verification]}
          >
            Install
          </button>
        )}
        {voice.state === 'failed' && <span className="error small">{voice.error}</span>}
        {tryError && <span className="error small">{tryError}</span>}
      </div>
    </li>
  );
}

/** The click-through of a licence that limits the audio made with the voice (or that Orator does not know). */
function LicenceConfirm({ voice, onAnswer }: { voice: LibraryVoice; onAnswer(accepted: boolean): void }) {
  return (
    <div className="library-license" role="group" aria-label={`Licence of ${voice.name}`}>
      <p className="small">
        {voice.license.id === 'unknown' ? 'This voice’s licence is not known to Orator' : `This voice is under ${voice.license.id}`}: it may
        limit what the audio you make with it can be used for (non-commercial or research only). Read it before you install.
      </p>
      <button type="button" className="small" onClick={() => onAnswer(true)}>
        Accept and install
      </button>{' '}
      <button type="button" className="small secondary" onClick={() => onAnswer(false)}>
        Cancel
      </button>
    </div>
  );
}
