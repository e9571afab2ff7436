/** What an import did, in a narrator's words: "15 chapters, 2 parts, front matter: title page, dedication". */
import type { ImportReport } from '../contract';
import type { ReadBook } from './chapters';

const count = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

export function importReport(book: ReadBook): ImportReport {
  const { report, metadata } = book;
  const chapters = book.chapters.filter((c) => !c.front_matter).length;
  const facts = [count(chapters, 'chapter')];
  if (report.parts.length > 0) facts.push(count(report.parts.length, 'part'));
  const front = report.front_matter.filter((kind) => kind !== 'front matter');
  if (report.front_matter.length > 0) facts.push(`front matter: ${front.length > 0 ? front.join(', ') : 'kept as text'}`);
  if (report.scene_headings > 0) facts.push(`${count(report.scene_headings, 'heading')} below the chapters kept as text`);
  const notes: string[] = [];
  if (report.empty_headings.length > 0) {
    const places = report.empty_headings.slice(0, 5).map((h) => (h.after === null ? 'at the start' : `after “${h.after}”`));
    const more = report.empty_headings.length > 5 ? `, and ${report.empty_headings.length - 5} more` : '';
    notes.push(`${count(report.empty_headings.length, 'heading')} with no words left out (${places.join(', ')}${more}).`);
  }
  if (metadata.cover_skipped) notes.push(`The book's cover was not taken: ${metadata.cover_skipped}.`);
  return {
    summary: facts.join(', '),
    chapters,
    parts: report.parts,
    front_matter: report.front_matter,
    scene_headings: report.scene_headings,
    empty_headings: report.empty_headings,
    metadata: {
      ...(metadata.title ? { title: metadata.title } : {}),
      ...(metadata.author ? { author: metadata.author } : {}),
      ...(metadata.language ? { language: metadata.language } : {}),
      cover: metadata.cover !== undefined,
    },
    notes,
  };
}
