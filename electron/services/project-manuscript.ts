import { carryEdits } from '../projects/edits';
import type { ManuscriptChapter } from '../projects/chapters';
import type { ChapterRow, NewChapter } from '../projects/store';

/**
 * A project's chapters after its manuscript was cut anew: a chapter whose text is found unchanged
 * (anywhere in the new order) keeps its job, its render key and its edits; a changed one is
 * matched to the old chapter of its title (else of its place) and keeps that one's sentence edits
 * where their sentences still are, the others flagged stale (docs/projects.md); an unchanged one
 * keeps its name and whether it is left out. `dropped`: the jobs no chapter keeps.
 */
export function chaptersAfter(old: readonly ChapterRow[], cut: readonly ManuscriptChapter[]): { next: NewChapter[]; dropped: string[] } {
  const used = new Set<ChapterRow>();
  const unused = (o: ChapterRow | undefined): o is ChapterRow => o !== undefined && !used.has(o);
  // first the chapters kept whole, wherever they moved; then where the changed ones come from
  const same = cut.map((chapter) => {
    const found = old.find((o) => unused(o) && o.text === chapter.text && o.job_id !== null);
    if (found) used.add(found);
    return found;
  });
  const next = cut.map((chapter, i): NewChapter => {
    const kept = same[i];
    const source =
      kept ??
      [old.find((o) => unused(o) && o.text === chapter.text), old.find((o) => unused(o) && o.title === chapter.title), old[i]].find(unused);
    if (source) used.add(source);
    const edits = source ? carryEdits(source.text, chapter.text, source.edits) : [];
    // an unchanged chapter keeps its name and whether it is left out, as the narrator set them
    const whole = source?.text === chapter.text ? source : undefined;
    return {
      title: whole?.title ?? chapter.title,
      text: chapter.text,
      part: chapter.part ?? null,
      front_matter: chapter.front_matter === true,
      excluded: whole?.excluded ?? false,
      job_id: kept?.job_id ?? null,
      render_key: kept?.render_key ?? null,
      edits,
    };
  });
  const dropped = old.filter((o) => o.job_id !== null && !same.includes(o)).map((o) => o.job_id!);
  return { next, dropped };
}
