import { useDeferredValue, useMemo } from 'react';
import { codePoints } from '../api/contract';
import { formatCount } from '../lib/format';
import { wordCount } from '../lib/text';
import { useApp } from '../store';
import { deliveryHint } from '../store/editor-slice';

/**
 * The draft. Its own component, like the counts below it: a keystroke re-renders these two, not
 * the card around them (its voice picker has a thousand options). Measured in
 * e2e/editor-latency.spec.ts with 100,000 characters.
 */
export function EditorText() {
  const text = useApp((s) => s.text);
  const setText = useApp((s) => s.setText);
  const setSelection = useApp((s) => s.setSelection);
  return (
    <textarea
      aria-label="Text to speak"
      placeholder="Paste a chapter, type, open a .txt or .md file, or drop one here."
      value={text}
      spellCheck
      onChange={(e) => setText(e.target.value)}
      onSelect={(e) => setSelection(e.currentTarget.selectionStart, e.currentTarget.selectionEnd)}
    />
  );
}

export function EditorStatus() {
  const text = useApp((s) => s.text);
  const threshold = useApp((s) => s.inlineThreshold);
  // Counting a whole novel on every keystroke would lag typing; counts may trail by a frame.
  const counted = useDeferredValue(text);
  const length = useMemo(() => codePoints(counted), [counted]);
  const words = useMemo(() => wordCount(counted), [counted]);
  const hint = deliveryHint(length, threshold);
  return (
    <div className="editor-status">
      {/* the count changes on every key, too often to announce; whether the text plays or queues is announced */}
      <span data-testid="char-count">
        {formatCount(length)} characters · {formatCount(words)} words
      </span>
      <span aria-live="polite">
        {hint !== 'empty' && (
          <span className={`pill pill-${hint}`} data-testid="delivery-hint">
            {hint === 'inline' ? `Plays at once (up to ${formatCount(threshold)} characters)` : 'Long text: queued as a job'}
          </span>
        )}
      </span>
    </div>
  );
}
