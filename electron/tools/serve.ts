/** `npm run serve`: the headless gateway (electron/serve.ts, built) in a process started with its memory settings. */
import { runHeadlessGateway } from './launch';

runHeadlessGateway(process.argv.slice(2));
