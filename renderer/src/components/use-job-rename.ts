import { useEffect, useRef, useState } from 'react';

/** Renaming a job in its row: whether the form is open, and focus back on Rename once it closes. */
export function useJobRename() {
  const [renaming, setRenaming] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  // Focus goes back to Rename once the form is gone and the button enabled again: after React's
  // commit, not a frame later (under load the frame came first and focus hit a disabled button).
  const refocus = useRef(false);
  useEffect(() => {
    if (renaming || !refocus.current) return;
    refocus.current = false;
    button.current?.focus();
  }, [renaming]);
  const close = () => {
    refocus.current = true;
    setRenaming(false);
  };
  return { renaming, open: () => setRenaming(true), close, button };
}
