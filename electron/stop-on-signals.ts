/**
 * How a headless process (the gateway, a worker host) stops: the first SIGINT/SIGTERM runs `stop`
 * (which drains) and exits when it is done; a second one, from someone who will not wait, exits at once.
 */
export function stopOnSignals(name: string, stop: () => Promise<void>): void {
  let stopping = false;
  const shutdown = () => {
    if (stopping) process.exit(1);
    stopping = true;
    stop().then(
      () => process.exit(0),
      (error: Error) => {
        console.error(`${name} did not stop cleanly: ${error.message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}
