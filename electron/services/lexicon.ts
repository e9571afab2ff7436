import { randomUUID } from 'node:crypto';
import {
  ApiError,
  LEXICON_LIMITS,
  type LexiconEntry,
  type LexiconEntryInput,
  type LexiconFormat,
  type LexiconImportResult,
  type LexiconList,
  type LexiconPatch,
  type LexiconScope,
} from '../contract';
import { readCsv, writeCsv } from '../lexicon/csv';
import { entryKey, entryProblem } from '../lexicon/entry';
import { readLexiconFile, writeLexiconFile } from '../lexicon/file';
import { LexiconFileError, readPls, writePls } from '../lexicon/pls';
import { compileRewrite, languageCovers, type Rewrite, type SpeakingVoice } from '../lexicon/rewrite';

/**
 * The pronunciation lexicon as the product offers it, whatever the transport: its entries, their
 * changes (saved before they are answered), files in and out, and the rewrite a voice applies to
 * text before synthesis.
 */
export class LexiconService {
  private entries: LexiconEntry[] = [];
  /** Compiled rewrites by voice, dropped at every change. */
  private rewrites = new Map<string, Rewrite>();
  /** Changes are saved one after another, in the order they were made. */
  private saving: Promise<void> = Promise.resolve();

  private constructor(private readonly dataDir: string) {}

  static async open(dataDir: string): Promise<LexiconService> {
    const service = new LexiconService(dataDir);
    const { entries, dropped } = await readLexiconFile(dataDir);
    if (dropped > 0) console.warn(`Orator: ${dropped} lexicon entries in ${dataDir} did not fit the schema and were dropped.`);
    service.entries = entries;
    return service;
  }

  list(scope: LexiconScope = {}): LexiconList {
    return { entries: this.entries.filter(inScope(scope)) };
  }

  /** The text as `voice` should read it. */
  pronounce(text: string, voice: SpeakingVoice): string {
    const key = `${voice.voiceId}\n${voice.language}\n${voice.phonemeAlphabet ?? ''}`;
    let rewrite = this.rewrites.get(key);
    if (!rewrite) {
      rewrite = compileRewrite(this.entries, voice);
      this.rewrites.set(key, rewrite);
    }
    return rewrite(text);
  }

  async replace(inputs: LexiconEntryInput[]): Promise<LexiconList> {
    await this.commit(merged([], inputs.map(checked)).entries);
    return this.list();
  }

  async patch(patch: LexiconPatch): Promise<LexiconList> {
    const removed = new Set(patch.delete ?? []);
    const missing = [...removed].find((id) => !this.entries.some((e) => e.id === id));
    if (missing !== undefined) throw new ApiError('not_found', `No lexicon entry "${missing}".`);
    const kept = this.entries.filter((e) => !removed.has(e.id));
    await this.commit(merged(kept, (patch.entries ?? []).map(checked)).entries);
    return this.list();
  }

  /** Removes the entries in `scope` (all of them when it is empty). */
  async remove(scope: LexiconScope): Promise<LexiconList> {
    const covered = inScope(scope);
    await this.commit(this.entries.filter((e) => !covered(e)));
    return this.list();
  }

  async removeEntry(id: string): Promise<boolean> {
    if (!this.entries.some((e) => e.id === id)) return false;
    await this.commit(this.entries.filter((e) => e.id !== id));
    return true;
  }

  async import(
    format: LexiconFormat,
    source: string,
    options: { mode: 'merge' | 'replace'; language?: string | undefined },
  ): Promise<LexiconImportResult> {
    let inputs: LexiconEntryInput[];
    try {
      inputs = format === 'pls' ? readPls(source) : readCsv(source, options.language);
    } catch (error) {
      if (error instanceof LexiconFileError) throw new ApiError('invalid_lexicon', error.message);
      throw error;
    }
    assertCount(inputs.length);
    const result = merged(options.mode === 'replace' ? [] : this.entries, inputs);
    await this.commit(result.entries);
    return { added: result.added, replaced: result.replaced, total: result.entries.length };
  }

  /** A PLS file is of one language tag exactly ("en" does not take in "en-GB" there); CSV keeps each entry's. */
  export(format: LexiconFormat, scope: LexiconScope): string {
    const { entries } = this.list(scope);
    if (format === 'csv') return writeCsv(entries);
    const language = scope.language?.toLowerCase();
    return this.pls(language === undefined ? entries : entries.filter((e) => e.language.toLowerCase() === language), scope);
  }

  private pls(entries: LexiconEntry[], scope: LexiconScope): string {
    const languages = [...new Set(entries.map((e) => e.language.toLowerCase()))];
    if (languages.length > 1 && scope.language === undefined) {
      throw new ApiError('invalid_request', `A PLS file holds one language; these entries have ${languages.length}. Pass ?language=.`);
    }
    return writePls(entries, scope.language ?? entries[0]?.language ?? 'und');
  }

  private async commit(entries: LexiconEntry[]): Promise<void> {
    assertCount(entries.length);
    const save = this.saving.then(() => writeLexiconFile(this.dataDir, entries));
    this.saving = save.catch(() => undefined);
    await save;
    this.entries = entries;
    this.rewrites.clear();
  }
}

function checked(input: LexiconEntryInput): LexiconEntryInput {
  const problem = entryProblem(input);
  if (problem) throw new ApiError('invalid_request', `${problem}.`);
  return input;
}

function assertCount(count: number): void {
  if (count > LEXICON_LIMITS.entries) {
    throw new ApiError('lexicon_too_large', `The lexicon would have ${count} entries; the maximum is ${LEXICON_LIMITS.entries}.`);
  }
}

/** `inputs` added to `entries`, each replacing the entry with its key (keeping that entry's id). */
function merged(entries: readonly LexiconEntry[], inputs: readonly LexiconEntryInput[]) {
  const byKey = new Map(entries.map((e) => [entryKey(e), e]));
  let added = 0;
  let replaced = 0;
  for (const input of inputs) {
    const key = entryKey(input);
    const existing = byKey.get(key);
    if (existing) replaced++;
    else added++;
    byKey.set(key, toEntry(input, existing?.id ?? randomUUID()));
  }
  return { entries: [...byKey.values()], added, replaced };
}

function toEntry(input: LexiconEntryInput, id: string): LexiconEntry {
  return {
    id,
    ...input,
    grapheme: input.grapheme.trim(),
    ...(input.phoneme !== undefined ? { alphabet: input.alphabet ?? 'x-espeak' } : {}),
    case_sensitive: input.case_sensitive ?? false,
    whole_word: input.whole_word ?? true,
  };
}

function inScope(scope: LexiconScope): (entry: LexiconEntry) => boolean {
  return (entry) =>
    (scope.language === undefined || languageCovers(scope.language, entry.language)) &&
    (scope.voice === undefined || entry.voice === scope.voice);
}
