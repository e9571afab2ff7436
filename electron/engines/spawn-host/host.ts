/**
 * Entry of the spawn host (built to dist/spawn-host.mjs): a small Node process that starts engine
 * programs for the gateway. Starting a process copies the page tables of the one that starts it:
 * from a gateway of 300 MB that blocked its event loop for tens of milliseconds per chunk, from
 * this process of about 45 MB it costs a few, and off the gateway's event loop.
 */
import { ApiError } from '../../contract';
import { runToolRaw } from '../cli';
import type { HostReply, HostRequest } from './protocol';

const running = new Map<number, AbortController>();

function reply(message: HostReply): void {
  process.send?.(message);
}

process.on('message', (message: HostRequest) => {
  if (message.kind === 'kill') return running.get(message.id)?.abort(new Error('aborted'));
  const stop = new AbortController();
  running.set(message.id, stop);
  runToolRaw(message.executable, message.args, { ...message.options, signal: stop.signal })
    .then(
      ({ stdout, stderr }) => reply({ id: message.id, stdout, stderr }),
      (error: Error) =>
        reply({ id: message.id, error: { message: error.message, code: error instanceof ApiError ? error.code : undefined } }),
    )
    .finally(() => running.delete(message.id));
});
// the gateway is gone (even killed): so is its host
process.on('disconnect', () => process.exit(0));
