import { readdir, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Voice } from '../../contract';
import { cliAdapter, type CliOverrides } from '../cli-adapter';
import { printing } from '../identity';
import { describeVoice, speakerName } from '../voice-names';

const ID = 'rhvoice';
/** RHVoice's default output rate. */
const SAMPLE_RATE = 24000;

/** Where RHVoice packages put voices: one folder each, with a voice.info. */
export function rhvoiceDirs(home = os.homedir()): string[] {
  return ['/usr/share/RHVoice/voices', '/usr/local/share/RHVoice/voices', path.join(home, '.local', 'share', 'RHVoice', 'voices')];
}

/** RHVoice's language names (voice.info "language=") as BCP 47. */
const LANGUAGES: Record<string, string> = {
  English: 'en',
  Russian: 'ru',
  Ukrainian: 'uk',
  Kyrgyz: 'ky',
  Tatar: 'tt',
  Georgian: 'ka',
  Esperanto: 'eo',
  'Brazilian-Portuguese': 'pt-BR',
  Polish: 'pl',
  Czech: 'cs',
  Slovak: 'sk',
  Macedonian: 'mk',
  Uzbek: 'uz',
  Albanian: 'sq',
  Vietnamese: 'vi',
  Croatian: 'hr',
  Serbian: 'sr',
};

/**
 * Accents voice.info does not give (it says only "English"): the CMU ARCTIC speakers RHVoice's
 * English voices were built from. BDL, CLB and SLT are American; Alan is the ARCTIC "AWB"
 * speaker (Alan W Black), Scottish.
 */
const KNOWN_LANGUAGES: Record<string, string> = {
  bdl: 'en-US',
  clb: 'en-US',
  slt: 'en-US',
  alan: 'en-GB-scotland',
};

/**
 * A voice's display name: voice.info's name ("Slt", "Evgeniy-Eng") as people write it, without
 * the language suffix of bilingual speakers (the language follows in parentheses), plus
 * language and gender: "SLT (US English, female)", "Evgeniy (English, male)".
 */
export function rhvoiceVoiceName(name: string, language: string, gender: string | undefined): string {
  const speaker = speakerName(name.replace(/-(eng|rus|ukr|kir|tat|geo|pol|cze|svk|mkd|uzb|alb|vie|hrv|srb|bra)$/i, ''));
  return describeVoice(speaker, { language, gender });
}

/** Reads "key=value" lines. */
export function parseVoiceInfo(text: string): Record<string, string> {
  return Object.fromEntries(
    text
      .split('\n')
      .map((line) => line.trim().split(/=(.*)/s))
      .filter(([key, value]) => key && value !== undefined)
      .map(([key, value]) => [key!.trim(), value!.trim()]),
  );
}

/** The voices installed in `dirs`, named by folder as `RHVoice-test -p` takes them. */
export async function listRhvoiceVoices(dirs: string[]): Promise<Voice[]> {
  const voices = new Map<string, Voice>();
  for (const dir of dirs) {
    const entries = await readdir(dir).catch(() => []);
    for (const folder of entries.sort()) {
      const info = await readFile(path.join(dir, folder, 'voice.info'), 'utf8').catch(() => null);
      if (info === null || voices.has(folder)) continue;
      const fields = parseVoiceInfo(info);
      const gender = fields.gender === 'male' || fields.gender === 'female' ? fields.gender : undefined;
      const language = KNOWN_LANGUAGES[folder] ?? LANGUAGES[fields.language ?? ''] ?? 'und';
      voices.set(folder, {
        id: `${ID}:${folder}`,
        name: rhvoiceVoiceName(fields.name ?? folder, language, gender),
        language,
        ...(gender ? { gender } : {}),
        sampleRate: SAMPLE_RATE,
        quality: 'medium',
      });
    }
  }
  return [...voices.values()];
}

/**
 * `RHVoice-test --version` says only "<argv[0]>  version: none". Its `--help` lists
 * "-p <spec>,  --profile <spec>" and ends with the program's description.
 */
export const RHVOICE_IDENTITY = printing('RHVoice-test', ['--help'], /--profile <spec>[^]*Simple test of the synthesizer/);

const percent = (multiplier: number) => String(Math.round(multiplier * 100));

/**
 * RHVoice (Debian non-free rhvoice + rhvoice-<language>): statistical parametric voices. Rate and
 * pitch are its own; volume is Orator's gain, since RHVoice holds its volume at 25 % or more (at
 * -v 0 it spoke at a quarter of full level, measured RMS 652 against 2610).
 */
export function rhvoiceAdapter(overrides: CliOverrides = {}, dirs = rhvoiceDirs()) {
  return cliAdapter(
    {
      id: ID,
      name: 'RHVoice',
      capabilities: { rate: true, pitch: true, volume: false },
      program: 'RHVoice-test',
      installHint: 'Install it with a voice: apt install rhvoice rhvoice-english (Debian non-free).',
      identity: RHVOICE_IDENTITY,
      preferredVoices: ['slt', 'clb', 'bdl'],
      voices: () => listRhvoiceVoices(dirs),
      command: (request, files) => ({
        args: ['-p', request.voice, '-r', percent(request.rate), '-t', percent(request.pitch), '-i', files.textFile, '-o', files.wavFile],
        silentRate: SAMPLE_RATE,
      }),
    },
    overrides,
  );
}
