import { useEffect, useReducer, useRef } from 'react';

/**
 * Where focus goes once the job list has rendered: a job's row by id, or the list's heading when
 * no row is left. Returns the heading's ref and `moveFocusTo`, which asks for the move.
 */
export function useListFocus() {
  const heading = useRef<HTMLHeadingElement>(null);
  const focusNext = useRef<string | 'heading' | null>(null);
  const [, rerender] = useReducer((n: number) => n + 1, 0);
  const moveFocusTo = (target: string | 'heading') => {
    focusNext.current = target;
    rerender();
  };

  useEffect(() => {
    const target = focusNext.current;
    if (target === null) return;
    const row = target === 'heading' ? null : document.querySelector<HTMLElement>(`li.job[data-job-id="${target}"]`);
    if (target !== 'heading' && !row) return; // not rendered yet
    focusNext.current = null;
    (row ?? heading.current)?.focus();
  });

  return { heading, moveFocusTo };
}
