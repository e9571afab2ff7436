import { useEffect, useRef } from 'react';

export interface CompareKeyActions {
  togglePlay(): void;
  /** Take `n` (0-based) of the list, on the same sentence. */
  take(n: number): void;
  /** Next (+1) or previous (−1) sentence on the playing take. */
  sentence(step: 1 | -1): void;
  /** Next (+1) or previous (−1) voice, on the same sentence. */
  voice(step: 1 | -1): void;
  /** Stars 1–5 for the active take (0 clears). */
  rate(stars: number): void;
  note(): void;
  loop(): void;
  help(): void;
  /** Rating mode on or off (R, then a digit). */
  rating(on: boolean): void;
}

/** Fields where a key is typing, not a shortcut: text inputs, text areas, selects, editable content. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target.isContentEditable || target.tagName === 'TEXTAREA' || target.tagName === 'SELECT') return true;
  return target instanceof HTMLInputElement && !['radio', 'checkbox', 'button', 'range'].includes(target.type);
}

/**
 * Compare's shortcuts (docs/studio.md): wherever focus is but inside a text field. R waits for a
 * digit (the stars); every other digit picks a take. Keys with modifiers are left to the browser.
 */
export function useCompareKeys(actions: CompareKeyActions, enabled: boolean): void {
  const current = useRef(actions);
  useEffect(() => {
    current.current = actions;
  });
  useEffect(() => {
    if (!enabled) return;
    let rating = false;
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const act = current.current;
      const digit = /^[0-9]$/.test(event.key) ? Number(event.key) : null;
      const handled = (() => {
        if (rating) {
          rating = false;
          act.rating(false);
          if (digit !== null && digit <= 5) return (act.rate(digit), true);
          return event.key === 'Escape';
        }
        if (digit !== null && digit > 0) return (act.take(digit - 1), true);
        switch (event.key) {
          case ' ':
            return (act.togglePlay(), true);
          case 'ArrowRight':
          case 'ArrowLeft':
            return (act.sentence(event.key === 'ArrowRight' ? 1 : -1), true);
          case 'ArrowDown':
          case 'ArrowUp':
            return (act.voice(event.key === 'ArrowDown' ? 1 : -1), true);
          case 'r':
          case 'R':
            rating = true;
            return (act.rating(true), true);
          case 'n':
          case 'N':
            return (act.note(), true);
          case 'l':
          case 'L':
            return (act.loop(), true);
          case '?':
            return (act.help(), true);
          default:
            return false;
        }
      })();
      if (handled) event.preventDefault();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [enabled]);
}
