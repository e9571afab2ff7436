import { useEffect, useRef } from 'react';

const SHORTCUTS: [string, string][] = [
  ['Space', 'Play or pause the take'],
  ['1 – 9', 'Take 1 to 9, on the same sentence'],
  ['← →', 'Previous or next sentence'],
  ['↑ ↓', 'Previous or next voice, on the same sentence'],
  ['R, then 1 – 5', 'Rate the take (R, then 0 clears)'],
  ['N', 'Write a note on the take'],
  ['L', 'Loop the sentence'],
  ['?', 'This list'],
];

/** The compare shortcuts; they work wherever focus is, except inside a text field. */
export function ShortcutHelp({ onClose }: { onClose(): void }) {
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const element = dialog.current;
    element?.showModal();
    return () => element?.close();
  }, []);
  // A close event that finds the dialog open again is the one its own unmount queued before a
  // remount (StrictMode mounts every effect twice in development): the list stays.
  const closed = () => {
    if (!dialog.current?.open) onClose();
  };
  return (
    <dialog ref={dialog} className="confirm-dialog shortcut-help" aria-labelledby="shortcut-title" onClose={closed} onCancel={onClose}>
      <h2 id="shortcut-title">Keyboard shortcuts</h2>
      <dl>
        {SHORTCUTS.map(([keys, what]) => (
          <div key={keys}>
            <dt>
              <kbd>{keys}</kbd>
            </dt>
            <dd>{what}</dd>
          </div>
        ))}
      </dl>
      <p className="muted small">They work wherever focus is, except inside a text field.</p>
      <button type="button" className="primary" onClick={onClose} autoFocus>
        Close
      </button>
    </dialog>
  );
}
