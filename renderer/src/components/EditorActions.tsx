import { useApp } from '../store';
import { previewSource } from '../store/editor-slice';

/**
 * The text card's foot: what went wrong (the editor's error, else the file's) or what happened, and
 * Preview and Synthesize.
 */
export function EditorActions({ fileError }: { fileError: string | null }) {
  // a boolean, so typing re-renders these buttons only when it flips
  const hasText = useApp((s) => /\S/.test(s.text));
  const busy = useApp((s) => s.editorBusy);
  const error = useApp((s) => s.editorError);
  const notice = useApp((s) => s.editorNotice);
  const synthesize = useApp((s) => s.synthesize);
  const previewText = useApp((s) => s.previewText);
  const hasSelection = useApp((s) => s.selection.start !== s.selection.end);
  const canPreview = useApp((s) => previewSource(s).length > 0);

  return (
    <div className="editor-actions">
      {(error || fileError) && (
        <p className="error" role="alert">
          {error ?? fileError}
        </p>
      )}
      {notice && !error && (
        <p className="notice" role="status">
          {notice}
        </p>
      )}
      <span className="spacer" />
      <button type="button" className="secondary" onClick={() => void previewText()} disabled={!canPreview || busy !== null}>
        {busy === 'preview' ? 'Previewing…' : hasSelection ? 'Preview selection' : 'Preview first sentence'}
      </button>
      <button type="button" className="primary" onClick={() => void synthesize()} disabled={!hasText || busy !== null}>
        {busy === 'synthesize' ? 'Synthesizing…' : 'Synthesize'}
      </button>
    </div>
  );
}
