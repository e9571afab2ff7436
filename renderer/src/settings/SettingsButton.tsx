import { useRef } from 'react';
import { SettingsPanel } from './SettingsPanel';

/** A gear in the top bar that opens the settings in a modal dialog. */
export function SettingsButton() {
  const dialog = useRef<HTMLDialogElement>(null);
  return (
    <>
      <button type="button" className="icon ghost" aria-label="Settings" title="Settings" onClick={() => dialog.current?.showModal()}>
        <svg
          aria-hidden="true"
          viewBox="0 0 24 24"
          width="18"
          height="18"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        >
          <circle cx="12" cy="12" r="3" />
          <path d="M12 2v3M12 19v3M4.2 4.2l2.1 2.1M17.7 17.7l2.1 2.1M2 12h3M19 12h3M4.2 19.8l2.1-2.1M17.7 6.3l2.1-2.1" />
        </svg>
      </button>
      <dialog ref={dialog} className="settings-dialog" aria-label="Settings">
        <header className="settings-header">
          <h2>Settings</h2>
          <button type="button" className="ghost small" onClick={() => dialog.current?.close()}>
            Close
          </button>
        </header>
        <SettingsPanel />
      </dialog>
    </>
  );
}
