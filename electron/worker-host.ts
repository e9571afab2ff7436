/**
 * `npm run worker`: a worker host. It runs this machine's engines for a gateway whose job queue is
 * on Redis (--queue), taking chunks of the voices it has and sending their audio to the gateway.
 * Its flags are workerConfigFromArgs's (worker-host/config.ts), listed in docs/scale.md.
 */
import { stopOnSignals } from './stop-on-signals';
import { workerConfigFromArgs } from './worker-host/config';
import { startWorkerHost } from './worker-host/host';

async function main() {
  const config = workerConfigFromArgs(process.argv.slice(2));
  const host = await startWorkerHost(config, { workerFile: new URL('./synth-worker.mjs', import.meta.url) });
  console.log(`Orator worker host ${host.name} · ${host.voices.length} voices · chunk audio to ${config.gateway}`);

  // chunks in hand finish and are sent before it exits
  stopOnSignals('Orator worker host', () => host.stop());
}

main().catch((error: Error) => {
  console.error(`Orator worker host could not start: ${error.message}`);
  process.exit(1);
});
