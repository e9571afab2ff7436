/**
 * `orator`: the command line of the running gateway, over its HTTP API (docs/cli.md). Exit codes:
 * 0 done, 1 the gateway or the output failed, 2 the command line is wrong, 130 interrupted.
 * Run by Node (bin.ts, `npx orator`) and by the desktop app's own binary (main.ts).
 */
import { ApiError } from '../contract';
import { GatewayError } from '../client';
import { ORATOR_VERSION } from '../gateway/identity';
import { helpOf, lazyGateway, parseCommand, type Command } from './command';
import { CommandFailure, UsageError } from './failures';
import { exitOnInterrupt } from './interrupt';
import { job, jobs } from './jobs';
import { say } from './say';
import { voices } from './voices';

const COMMANDS: readonly Command[] = [say, voices, jobs, job];
const OPTIONS = ['--help', '-h', 'help', '--version'];

/** Whether these arguments ask for the command line (a command or its options), not the desktop app. */
export function isCommandLine(argv: readonly string[]): boolean {
  const first = argv[0];
  return first !== undefined && (OPTIONS.includes(first) || COMMANDS.some((c) => c.name === first));
}

const OVERVIEW = `Usage: orator <command> [options]

Speaks text with the Orator gateway running on this machine (the desktop app, or npm run serve),
which it finds in its data folder.

Commands:
${COMMANDS.map((c) => `  ${c.name.padEnd(8)}${c.summary}`).join('\n')}

orator <command> --help tells more about each; orator --version prints the version.
`;

async function run(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(OVERVIEW);
    return 2;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    const topic = rest[0] === undefined ? undefined : COMMANDS.find((c) => c.name === rest[0]);
    if (rest[0] !== undefined && !topic) throw new UsageError(`Unknown command "${rest[0]}". See: orator --help`);
    process.stdout.write(topic ? helpOf(topic) : OVERVIEW);
    return 0;
  }
  if (name === '--version') {
    process.stdout.write(`${ORATOR_VERSION}\n`);
    return 0;
  }
  const command = COMMANDS.find((c) => c.name === name);
  if (!command) throw new UsageError(`Unknown command "${name}". See: orator --help`);
  const args = parseCommand(command, rest);
  if (args.values.help) {
    process.stdout.write(helpOf(command));
    return 0;
  }
  await command.run(args, lazyGateway(args.values));
  return 0;
}

/** One sentence on standard error, and the exit code of its kind. */
function report(error: unknown): number {
  if (error instanceof UsageError || error instanceof CommandFailure) {
    process.stderr.write(`orator: ${error.message}\n`);
    return error.exitCode;
  }
  if (error instanceof ApiError || error instanceof GatewayError) {
    process.stderr.write(`orator: ${error.message}\n`);
    return 1;
  }
  process.stderr.write(`orator: unexpected failure: ${(error as Error).stack ?? String(error)}\n`);
  return 1;
}

/** Runs one command line to its end (Ctrl-C exits 130); resolves with the exit code. */
export function runCommandLine(argv: string[]): Promise<number> {
  exitOnInterrupt();
  return run(argv).catch(report);
}
