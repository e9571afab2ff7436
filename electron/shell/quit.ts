export interface QuitApp {
  on(event: 'before-quit', listener: (event: { preventDefault(): void }) => void): unknown;
  quit(): void;
}

/**
 * Holds the first quit until the gateway has shut down: it stops accepting requests, lets the
 * chunks in flight finish and be saved (unfinished jobs resume at the next start) and closes the
 * database. Then it quits for real. `onQuitting` runs at once, so windows stop hiding to the tray.
 */
export function installQuitSequence(app: QuitApp, closeGateway: () => Promise<void>, onQuitting: () => void): { done: Promise<void> } {
  let phase: 'running' | 'closing' | 'closed' = 'running';
  let finished!: () => void;
  const done = new Promise<void>((resolve) => (finished = resolve));
  app.on('before-quit', (event) => {
    if (phase === 'closed') return;
    event.preventDefault();
    if (phase === 'closing') return;
    phase = 'closing';
    onQuitting();
    closeGateway()
      .catch((error: Error) => console.error(`Orator: the gateway did not shut down cleanly: ${error.message}`))
      .finally(() => {
        phase = 'closed';
        finished();
        app.quit();
      });
  });
  return { done };
}
