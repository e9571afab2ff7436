import { createHash } from 'node:crypto';
import { applyEdits } from '../projects/edits';
import { renderKey } from '../projects/render-key';
import type { ChapterRow, ProjectRow } from '../projects/store';
import type { Rewrite } from '../lexicon/rewrite';
import { spokenBy, type Pronouncer } from './synthesis';
import type { Voices } from './voices';

/** The lexicon, whose `revision` goes up at each change (LexiconService). */
export type RevisedLexicon = Pronouncer & { readonly revision: number };

/**
 * Render keys of chapters, kept by project and chapter index with what they were made from: the
 * lexicon's rewrite of a book's text takes about a second per 500,000 characters, and the studio
 * reads a rendering project every second; a hash of the text costs a hundredth of that.
 */
export class RenderKeys {
  private readonly keys = new Map<string, Map<number, { made: string; key: string }>>();

  constructor(
    private readonly voices: Voices,
    private readonly lexicon: RevisedLexicon | undefined,
  ) {}

  /** The render key of a chapter (its text as rendered: with its edits) for this project's settings; null when its voice is gone. */
  maker(project: ProjectRow): ((chapter: Pick<ChapterRow, 'idx' | 'text' | 'edits'>) => string) | null {
    let spoken: Rewrite;
    try {
      spoken = spokenBy(this.lexicon, this.voices.resolve({ voice: project.voice }));
    } catch {
      return null;
    }
    const { voice, rate, pitch, volume, format } = project;
    const settings = JSON.stringify([this.lexicon?.revision ?? 0, voice, rate, pitch, volume, format]);
    let keys = this.keys.get(project.id);
    if (!keys) this.keys.set(project.id, (keys = new Map()));
    return (chapter) => {
      const text = applyEdits(chapter.text, chapter.edits);
      const made = `${settings}${createHash('sha256').update(text).digest('hex')}`;
      const known = keys.get(chapter.idx);
      if (known?.made === made) return known.key;
      const key = renderKey({ spoken: spoken(text).text, voice, rate, pitch, volume, format });
      keys.set(chapter.idx, { made, key });
      return key;
    };
  }

  forget(projectId: string): void {
    this.keys.delete(projectId);
  }
}
