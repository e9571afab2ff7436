import { useEffect } from 'react';
import type WaveSurfer from 'wavesurfer.js';

/** Space plays/pauses, arrows seek (Shift: further), anywhere except where keys mean typing. */
export function usePlaybackKeys(ws: WaveSurfer | null): void {
  useEffect(() => {
    if (!ws) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || typingTarget(event.target)) return;
      const step = event.shiftKey ? 15 : 5;
      if (event.key === ' ') {
        // Space on a focused button presses that button instead.
        if (event.target instanceof HTMLButtonElement) return;
        event.preventDefault();
        void ws.playPause();
      } else if (event.key === 'ArrowLeft') {
        event.preventDefault();
        ws.skip(-step);
      } else if (event.key === 'ArrowRight') {
        event.preventDefault();
        ws.skip(step);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [ws]);
}

function typingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable) return true;
  return (
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && target.type !== 'checkbox')
  );
}
