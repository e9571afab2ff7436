import { useApp } from '../store';
import { jobTitle } from '../store/jobs-slice';

/**
 * Says which job was just deleted and offers to bring it back while its deletion waits. The
 * status region is always there, so screen readers announce what appears in it.
 */
export function UndoDeleteToast({ onUndone }: { onUndone(jobId: string): void }) {
  const pending = useApp((s) => s.deletionPending);
  const undoDelete = useApp((s) => s.undoDelete);
  const undo = () => {
    const id = undoDelete();
    if (id) onUndone(id);
  };
  return (
    <div className="undo-toast-region" role="status">
      {pending && (
        <div className="undo-toast">
          <span>Deleted “{jobTitle(pending)}”.</span>
          <button type="button" className="small secondary" onClick={undo}>
            Undo
          </button>
        </div>
      )}
    </div>
  );
}
