import { API, speaksLanguage } from '../contract';
import { stringOption, type Command } from './command';
import { UsageError } from './failures';
import { install, listAvailable, remove } from './voice-library';
import { printJson, printTable } from './table';

export const voices: Command = {
  name: 'voices',
  summary: 'list the voices; install and remove voices of the voice library',
  usage: `Usage: orator voices [--lang <language>] [--engine <id>] [--json]
       orator voices available [--lang <language>] [--json]
       orator voices install <id> [--accept-license]
       orator voices remove <id>

Without a subcommand, lists the voices of every available engine: the ids that orator say -v and
the API take. "available" lists the voice library's catalog; "install" downloads, checks and
installs one of its voices (with a progress bar; exit code 1 when it fails) and "remove" removes
it or cancels its install. Both need the admin token, read from the data folder.`,
  options: {
    lang: { type: 'string', short: 'l' },
    engine: { type: 'string', short: 'e' },
    json: { type: 'boolean' },
    'accept-license': { type: 'boolean' },
  },
  optionHelp: `  -l, --lang <language>  only voices of this language: "de" matches de, de-DE, de-AT…;
                         "en-gb" matches en-GB and en-GB-scotland
  -e, --engine <id>      only this engine's voices
      --json             the voices as JSON, for scripts
      --accept-license   install: accept a licence that limits the audio (non-commercial,
                         research-only or unknown); it is named when it is needed`,
  maxPositionals: 2,
  async run({ values, positionals }, connect) {
    const [action, id] = positionals;
    const lang = stringOption(values, 'lang');
    if (action === 'available') return listAvailable(await connect(), lang, values.json === true);
    if (action === 'install' || action === 'remove') {
      if (id === undefined) throw new UsageError(`orator voices ${action} needs a voice id; orator voices available lists them.`);
      const gateway = await connect();
      return action === 'install' ? install(gateway, id, values['accept-license'] === true, process.stderr.isTTY) : remove(gateway, id);
    }
    if (action !== undefined)
      throw new UsageError(`Unknown "orator voices ${action}": available, install or remove. See: orator voices --help`);
    const { client } = await connect();
    const engine = stringOption(values, 'engine');
    const { engines } = await client.call(API.listEngines);
    const chosen = engines.filter((e) => e.available && (engine === undefined || e.id === engine));
    const details = await Promise.all(chosen.map((e) => client.call(API.getEngine, { params: { id: e.id } })));
    const list = details.flatMap((d) => d.voices).filter((v) => lang === undefined || speaksLanguage(v.language, lang));
    if (values.json) return printJson(list);
    if (engine !== undefined && !engines.some((e) => e.id === engine)) {
      process.stderr.write(`No engine "${engine}"; the engines are ${engines.map((e) => e.id).join(', ')}.\n`);
    } else if (list.length === 0) process.stderr.write('No voice matches.\n');
    if (list.length === 0) return;
    printTable(
      ['VOICE', 'LANGUAGE', 'GENDER', 'QUALITY', 'NAME'],
      list.map((v) => [v.id, v.language, v.gender ?? '-', v.quality ?? '-', v.name]),
    );
  },
};
