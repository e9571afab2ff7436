/**
 * `npm run serve`: the gateway headless, in plain Node, with the web studio at "/".
 * Flags: --host --port --data-dir --api-key --inline-threshold --max-text-length --workers --max-queued-jobs
 */
import { fileURLToPath } from 'node:url';
import { configFromArgs } from './gateway/config';
import { startGateway } from './gateway/start';

const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

async function main() {
  const config = { ...configFromArgs(process.argv.slice(2)), staticDir: fileURLToPath(new URL('./renderer', import.meta.url)) };
  if (!LOOPBACK.includes(config.host)) {
    console.warn(`Warning: binding to ${config.host} exposes the gateway beyond this machine; anyone with the API key can use it.`);
  }
  const gateway = await startGateway(config, { workerFile: new URL('./synth-worker.mjs', import.meta.url) });
  const keySource = config.apiKey === undefined ? `API key in ${gateway.apiKeyFile}` : 'API key from --api-key / ORATOR_API_KEY';
  console.log(`Orator gateway at ${gateway.url}/ · studio: ${gateway.url}/#key=${gateway.apiKey} · ${keySource}`);

  let closing = false;
  const shutdown = () => {
    if (closing) return;
    closing = true;
    void gateway.close().then(() => process.exit(0));
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
}

main().catch((error: Error) => {
  console.error(`Orator could not start: ${error.message}`);
  process.exit(1);
});
