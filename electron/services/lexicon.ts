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
import { LexiconFileError, LexiconFileTooLarge } from '../lexicon/file-errors';
import { readPls, writePls } from '../lexicon/pls';
import { compileRewrite, languageCovers, type Rewrite, type SpeakingVoice, type Spoken } from '../lexicon/rewrite';

/**
 * The pronunciation lexicon as the product offers it, whatever the transport: its entries, their
 * changes (saved before they are answered), files in and out, and the rewrite a voice applies to
 * text before synthesis.
 */
export class LexiconService {
  private entries: LexiconEntry[] = [];
  /** Compiled rewrites by voice, dropped at every change. */
  private rewrites = new Map<string, Rewrite>();
  /** Changes run one after another, each on the lexicon the one before left, in the order they came. */
  private changes: Promise<void> = Promise.resolve();
  private changeCount = 0;

  private constructor(private readonly dataDir: string) {}

  static async open(dataDir: string): Promise<LexiconService> {
    const service = new LexiconService(dataDir);
    const { entries, dropped } = await readLexiconFile(dataDir);
    if (dropped > 0) console.warn(`Orator: ${dropped} lexicon entries in ${dataDir} did not fit the schema and were dropped.`);
    service.entries = entries;
    return service;
  }

  /** Goes up at every change: text said with the lexicon before may be said otherwise now. */
  get revision(): number {
    return this.changeCount;
  }

  list(scope: LexiconScope = {}): LexiconList {
    return { entries: this.entries.filter(inScope(scope)) };
  }

  /** The text as `voice` should read it, with where each replacement came from. */
  pronounce(text: string, voice: SpeakingVoice): Spoken {
    const key = `${voice.voiceId}\n${voice.language}\n${voice.phonemeAlphabet ?? ''}`;
    let rewrite = this.rewrites.get(key);
    if (!rewrite) {
      rewrite = compileRewrite(this.entries, voice);
      this.rewrites.set(key, rewrite);
    }
    return rewrite(text);
  }

  async replace(inputs: LexiconEntryInput[]): Promise<LexiconList> {
    const entries = inputs.map(checked);
    await this.change(() => merged([], entries).entries);
    return this.list();
  }

  async patch(patch: LexiconPatch): Promise<LexiconList> {
    const removed = new Set(patch.delete ?? []);
    const added = (patch.entries ?? []).map(checked);
    await this.change((current) => {
      const missing = [...removed].find((id) => !current.some((e) => e.id === id));
      if (missing !== undefined) throw new ApiError('not_found', `No lexicon entry "${missing}".`);
      return merged(
        current.filter((e) => !removed.has(e.id)),
        added,
      ).entries;
    });
    return this.list();
  }

  /** Removes the entries in `scope` (all of them when it is empty). */
  async remove(scope: LexiconScope): Promise<LexiconList> {
    const covered = inScope(scope);
    await this.change((current) => current.filter((e) => !covered(e)));
    return this.list();
  }

  async removeEntry(id: string): Promise<boolean> {
    let found = false;
    await this.change((current) => {
      found = current.some((e) => e.id === id);
      return current.filter((e) => e.id !== id);
    });
    return found;
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
      if (error instanceof LexiconFileTooLarge) throw new ApiError('lexicon_too_large', error.message);
      throw error;
    }
    assertCount(inputs.length);
    let result = merged([], []);
    await this.change((current) => {
      result = merged(options.mode === 'replace' ? [] : current, inputs);
      return result.entries;
    });
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

  /** Computes the next lexicon from the current one, saves it, then makes it current; a throw changes nothing. */
  private async change(next: (current: readonly LexiconEntry[]) => LexiconEntry[]): Promise<void> {
    const run = this.changes.then(async () => {
      const entries = next(this.entries);
      assertCount(entries.length);
      await writeLexiconFile(this.dataDir, entries);
      this.entries = entries;
      this.rewrites.clear();
      this.changeCount++;
    });
    this.changes = run.catch(() => undefined);
    await run;
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
