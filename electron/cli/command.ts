/** What every subcommand of `orator` shares: its options' parsing, the connection flags, its help. */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { connect, type Gateway } from './connection';
import { UsageError } from './failures';

type Options = NonNullable<ParseArgsConfig['options']>;

export interface ParsedArgs {
  values: Record<string, string | boolean | undefined>;
  positionals: string[];
}

export interface Command {
  name: string;
  /** One line for `orator --help`. */
  summary: string;
  /** The usage lines and description of `orator <name> --help`, before the options. */
  usage: string;
  /** Its own options, with their help lines. */
  options: Options;
  optionHelp: string;
  /** Positional arguments it takes: none, or how many at most (Infinity: any). */
  maxPositionals: number;
  run(args: ParsedArgs, gateway: () => Promise<Gateway>): Promise<void>;
}

const CONNECTION: Options = {
  'data-dir': { type: 'string' },
  url: { type: 'string' },
  'api-key-file': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
};

const CONNECTION_HELP = `Connection:
      --data-dir <dir>       the gateway's data folder (default: ORATOR_DATA_DIR, else the
                             platform's: ~/.config/Orator on Linux)
      --url <url>            the gateway's address (default: ORATOR_URL, else the one it
                             recorded in <data-dir>/gateway-url)
      --api-key-file <file>  the key, for a gateway started with its own (default:
                             ORATOR_API_KEY_FILE or ORATOR_API_KEY, else <data-dir>/api-key)
  -h, --help                 show this help`;

export function helpOf(command: Command): string {
  return `${command.usage}\n\nOptions:\n${command.optionHelp}\n\n${CONNECTION_HELP}\n`;
}

/** Parses a subcommand's arguments; a mistake is a UsageError that names it. */
export function parseCommand(command: Command, argv: string[]): ParsedArgs {
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: { ...CONNECTION, ...command.options }, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(
      `${(error as Error).message.replace(/\. To specify a positional argument.*$/s, '.')} See: orator ${command.name} --help`,
    );
  }
  if (!parsed.values.help && parsed.positionals.length > command.maxPositionals) {
    const extra = parsed.positionals.slice(command.maxPositionals).join(' ');
    throw new UsageError(
      `Unexpected argument${parsed.positionals.length - command.maxPositionals > 1 ? 's' : ''}: ${extra}. See: orator ${command.name} --help`,
    );
  }
  return { values: parsed.values as ParsedArgs['values'], positionals: parsed.positionals };
}

/** The connection a command asks for, made once when it first needs it. */
export function lazyGateway(values: ParsedArgs['values']): () => Promise<Gateway> {
  let gateway: Promise<Gateway> | undefined;
  return () =>
    (gateway ??= connect({
      dataDir: stringOption(values, 'data-dir'),
      url: stringOption(values, 'url'),
      apiKeyFile: stringOption(values, 'api-key-file'),
    }));
}

export function stringOption(values: ParsedArgs['values'], name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

/** A number option within bounds, or a UsageError naming them. */
export function numberOption(values: ParsedArgs['values'], name: string, min: number, max: number): number | undefined {
  const raw = stringOption(values, name);
  if (raw === undefined) return undefined;
  const value = Number(raw);
  if (raw.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    throw new UsageError(`--${name} must be a number from ${min} to ${max}, not "${raw}".`);
  }
  return value;
}
