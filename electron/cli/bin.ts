/** `orator` under Node: `npx orator …`, `node dist/cli.mjs …`, or linked by npm from package.json's `bin`. */
import { runCommandLine } from './main';

void runCommandLine(process.argv.slice(2)).then((code) => (process.exitCode = code));
