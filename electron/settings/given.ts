import { Type } from 'typebox';
import { Value } from 'typebox/value';
import { Settings, type SettingName } from '../contract/settings';
import { SETTING_NAMES, settingRow } from './table';
import { integer } from './text-values';

/** The flag or environment variable that set a setting for this run. */
export interface SetBy {
  source: 'env' | 'flag';
  /** "--retention-hours", "ORATOR_PORT". */
  name: string;
}

/** What the flags and environment variables of one run give, and which of them gave each value. */
export interface GivenSettings {
  values: Partial<Settings>;
  givenBy: Partial<Record<SettingName, SetBy>>;
}

type FlagOption = { type: 'string'; multiple: boolean };

/** The settings' flags, as node:util parseArgs options. */
export function settingFlagOptions(): Record<string, FlagOption> {
  const options: Record<string, FlagOption> = {};
  for (const name of SETTING_NAMES) {
    const { flag, repeatable } = settingRow(name);
    if (flag) options[flag.slice(2)] = { type: 'string', multiple: repeatable === true };
  }
  return options;
}

/**
 * The settings given by flags (as parseArgs read them) or environment variables; a flag wins over
 * its variable, and an empty variable counts as unset. Each value is checked against its schema in
 * the contract, so a flag is held to the same bounds as PUT /settings; a bad one throws naming it.
 */
export function givenSettings(flags: Record<string, unknown>, env: NodeJS.ProcessEnv): GivenSettings {
  const given: GivenSettings = { values: {}, givenBy: {} };
  for (const name of SETTING_NAMES) {
    const { flag, env: variable } = settingRow(name);
    const fromFlag = flag === undefined ? undefined : (flags[flag.slice(2)] as string | string[] | undefined);
    const by: SetBy | undefined =
      fromFlag !== undefined ? { source: 'flag', name: flag! } : variable && env[variable] ? { source: 'env', name: variable } : undefined;
    if (!by) continue;
    const texts = fromFlag === undefined ? [env[by.name]!] : ([] as string[]).concat(fromFlag);
    (given.values as Record<string, unknown>)[name] = readSetting(name, texts, by.name);
    given.givenBy[name] = by;
  }
  return given;
}

function readSetting(name: SettingName, texts: string[], option: string): unknown {
  const schema = Settings.properties[name];
  const read = settingRow(name).read;
  const text = texts.at(-1)!;
  const value = read ? read(texts, option) : fromText(schema, text, option);
  const problem = Value.Errors(schema, value)[0];
  if (problem) throw new Error(`${option} is not a valid value: ${problem.message}; got "${texts.join(' ')}"`);
  return value;
}

/** A flag's text as its schema's type: the bounds of an integer are named as flags have always named them. */
function fromText(schema: (typeof Settings.properties)[SettingName], text: string, option: string): unknown {
  if (Type.IsInteger(schema)) {
    const { minimum = -Infinity, maximum } = schema as { minimum?: number; maximum?: number };
    return integer(option, text, NaN, { minimum, maximum });
  }
  if (Type.IsBoolean(schema)) {
    if (text === 'true' || text === '1') return true;
    if (text === 'false' || text === '0') return false;
    throw new Error(`${option} must be true or false, got "${text}"`);
  }
  if (Type.IsString(schema)) return text;
  throw new Error(`${option}: the settings table gives no way to read this setting from text`);
}
