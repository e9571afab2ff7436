import { createHash } from 'node:crypto';
import type { LexiconList } from '../contract';
import { applyEdits } from '../projects/edits';
import { renderKey } from '../projects/render-key';
import { SentenceIndex } from '../projects/sentence-index';
import type { ChapterRow, ProjectRow } from '../projects/store';
import type { Rewrite } from '../lexicon/rewrite';
import { LexiconHistory } from './lexicon-history';
import { spokenBy, type Pronouncer } from './synthesis';
import type { Voices } from './voices';

/** The lexicon, whose `revision` goes up at each change (LexiconService). */
export type RevisedLexicon = Pronouncer & { readonly revision: number; list(): LexiconList };

/** Projects whose chapters' sentence indexes are kept (the last used): a book's is about its text's size again. */
const INDEXED_PROJECTS = 8;

interface KnownKey {
  /** The settings and the hash of the chapter's text (its edits applied) it was made from. */
  made: string;
  key: string;
  /** The lexicon's revision it stands for. */
  revision: number;
  /** The chapter's sentences and their words, made at the first lexicon change after the key. */
  index?: SentenceIndex;
}

/**
 * Render keys of chapters, kept by project and chapter index with what they were made from: the
 * lexicon's rewrite of a book's text takes about a second per 500,000 characters, and the studio
 * reads a rendering project every second; a hash of the text costs a hundredth of that. After a
 * lexicon change a chapter's key is made again only when the chapter may hold a grapheme the
 * change touched, found through its sentence index (projects/sentence-index.ts): an entry for a
 * name in three chapters rewrites those three, not the book.
 */
export class RenderKeys {
  private readonly keys = new Map<string, Map<number, KnownKey>>();
  private readonly history = new LexiconHistory();

  constructor(
    private readonly voices: Voices,
    private readonly lexicon: RevisedLexicon | undefined,
  ) {}

  /** The render key of a chapter (its text as rendered: with its edits) for this project's settings; null when its voice is gone. */
  maker(project: ProjectRow): ((chapter: Pick<ChapterRow, 'idx' | 'text' | 'edits'>) => string) | null {
    let spoken: Rewrite;
    let language: string;
    try {
      const resolved = this.voices.resolve({ voice: project.voice });
      spoken = spokenBy(this.lexicon, resolved);
      language = resolved.voice.language;
    } catch {
      return null;
    }
    const revision = this.lexicon?.revision ?? 0;
    if (this.lexicon) this.history.observe(revision, this.lexicon.list().entries);
    const { voice, rate, pitch, volume, format } = project;
    const settings = JSON.stringify([voice, rate, pitch, volume, format]);
    const keys = this.projectKeys(project.id);
    return (chapter) => {
      const text = applyEdits(chapter.text, chapter.edits);
      const made = `${settings}${createHash('sha256').update(text).digest('hex')}`;
      const known = keys.get(chapter.idx);
      if (known?.made === made) {
        if (this.stands(known, revision, text, language)) return known.key;
      }
      const key = renderKey({ spoken: spoken(text).text, voice, rate, pitch, volume, format });
      keys.set(chapter.idx, { made, key, revision, ...(known?.made === made && known.index ? { index: known.index } : {}) });
      return key;
    };
  }

  /** The sentence index of a chapter whose key is known (made, for the render plan, when it is not yet). */
  index(projectId: string, chapter: Pick<ChapterRow, 'idx'>, text: string, language: string): SentenceIndex {
    const known = this.keys.get(projectId)?.get(chapter.idx);
    const index = known?.index ?? SentenceIndex.of(text, language);
    if (known) known.index = index;
    return index;
  }

  forget(projectId: string): void {
    this.keys.delete(projectId);
  }

  /** Whether a key made at an earlier revision of the lexicon stands: no grapheme changed since is in the chapter. */
  private stands(known: KnownKey, revision: number, text: string, language: string): boolean {
    if (known.revision === revision) return true;
    const changed = this.history.changedBetween(known.revision, revision);
    if (!changed) return false;
    known.index ??= SentenceIndex.of(text, language);
    if (known.index.mayHoldAny(changed)) return false;
    known.revision = revision;
    return true;
  }

  /** A project's keys, as the most recently used; the indexes of projects used longer ago are let go. */
  private projectKeys(projectId: string): Map<number, KnownKey> {
    const keys = this.keys.get(projectId) ?? new Map<number, KnownKey>();
    this.keys.delete(projectId);
    this.keys.set(projectId, keys);
    [...this.keys.values()].slice(0, -INDEXED_PROJECTS).forEach((older) => older.forEach((known) => delete known.index));
    return keys;
  }
}
