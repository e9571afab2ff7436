/**
 * `npm run serve`: the gateway headless, in plain Node, with the web studio at "/".
 * Its flags are configFromArgs's (gateway/config.ts), listed in README and docs/desktop.md.
 */
import { fileURLToPath } from 'node:url';
import { LOOPBACK_HOSTS } from './contract';
import { ARGV_KEY_SOURCE } from './gateway/api-key';
import { configFromArgs } from './gateway/config';
import { startGateway, type Gateway } from './gateway/start';
import { stopOnSignals } from './stop-on-signals';

/**
 * The one start-up line. The studio link carries the key, so it is printed only when the key was
 * made by this very start and a person sees the output: never into a log file, journald or a pipe.
 */
function startupLine(gateway: Gateway, keySource: string | undefined, terminal: boolean): string {
  const parts = [`Orator gateway at ${gateway.url}/`, `instance ${gateway.instance}`];
  if (keySource) parts.push(`API key from ${keySource}`);
  else if (gateway.apiKeyCreated && terminal)
    parts.push(`studio: ${gateway.url}/#key=${gateway.apiKey}`, `API key saved in ${gateway.apiKeyFile}`);
  else parts.push(`API key in ${gateway.apiKeyFile}`);
  // the token itself is never printed: settings are changed by whoever can read this file
  parts.push(`admin token in ${gateway.adminTokenFile}`);
  return parts.join(' · ');
}

async function main() {
  const config = { ...configFromArgs(process.argv.slice(2)), staticDir: fileURLToPath(new URL('./renderer', import.meta.url)) };
  // only --host or ORATOR_HOST choose the bind address; without either it is loopback
  if (config.host !== undefined && !LOOPBACK_HOSTS.includes(config.host)) {
    console.warn(`Warning: binding to ${config.host} exposes the gateway beyond this machine; anyone with the API key can use it.`);
  }
  if (config.apiKeySource === ARGV_KEY_SOURCE) {
    console.warn(
      'Warning: --api-key puts the key on the command line, where other users of this machine can read it (ps, /proc/<pid>/cmdline). Use --api-key-file <file> (mode 0600) or ORATOR_API_KEY instead.',
    );
  }
  const gateway = await startGateway(config, { workerFile: new URL('./synth-worker.mjs', import.meta.url) });
  console.log(startupLine(gateway, config.apiKeySource, process.stdout.isTTY === true));

  // requests in flight are answered and jobs checkpoint before it exits
  stopOnSignals('Orator', () => gateway.close());
}

main().catch((error: Error) => {
  console.error(`Orator could not start: ${error.message}`);
  process.exit(1);
});
