/** Ctrl-C: what is half done is undone (a partial output file), then exit 130 as shells expect. */
import { INTERRUPTED_EXIT_CODE } from './failures';

const undoers = new Set<() => void>();

/** Runs `undo` (synchronously) if the user interrupts before the returned release is called. */
export function onInterrupt(undo: () => void): () => void {
  undoers.add(undo);
  return () => undoers.delete(undo);
}

export function exitOnInterrupt(): void {
  process.once('SIGINT', () => {
    for (const undo of undoers) undo();
    process.exit(INTERRUPTED_EXIT_CODE);
  });
}
