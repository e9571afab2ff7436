import { speaksLanguage } from '../contract';
import { stringOption, type Command } from './command';
import { printJson, printTable } from './table';

export const voices: Command = {
  name: 'voices',
  summary: 'list the voices of the available engines',
  usage: `Usage: orator voices [--lang <language>] [--engine <id>] [--json]

Lists the voices of every available engine: the ids that orator say -v and the API take.`,
  options: {
    lang: { type: 'string', short: 'l' },
    engine: { type: 'string', short: 'e' },
    json: { type: 'boolean' },
  },
  optionHelp: `  -l, --lang <language>  only voices of this language: "de" matches de, de-DE, de-AT…;
                         "en-gb" matches en-GB and en-GB-scotland
  -e, --engine <id>      only this engine's voices
      --json             the voices as JSON, for scripts`,
  maxPositionals: 0,
  async run({ values }, connect) {
    const { client } = await connect();
    const lang = stringOption(values, 'lang');
    const engine = stringOption(values, 'engine');
    const { engines } = await client.listEngines();
    const chosen = engines.filter((e) => e.available && (engine === undefined || e.id === engine));
    const details = await Promise.all(chosen.map((e) => client.engine(e.id)));
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
