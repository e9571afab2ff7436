/**
 * The book's structure over HTTP on a real gateway (issue 34, points 4 and 5): a 150,000-word
 * novel made by pandoc as DOCX and EPUB, with metadata, front matter, parts, chapters, scene
 * headings and an empty heading, imported as a narrator would; then a small book's chapters
 * renamed, left out, merged and split, rendered with the embedded eSpeak NG and exported as an
 * M4B whose chapter marks and cover an independent reader checks.
 */
import { parseBuffer } from 'music-metadata';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Project, RenderResult } from '../contract';
import { startTestGateway, waitForExport, waitForJob, type TestGateway } from '../testing/gateway';
import { NOVEL, novelMarkdown, pandocNovel } from '../testing/novel';

const PROJECTS = '/api/v1/tts/projects';
const VOICE = 'espeak-ng:en-us';

let gateway: TestGateway;
beforeAll(async () => {
  gateway = await startTestGateway({ maxTextLength: 2_000_000 });
});
afterAll(() => gateway.stop());

const send = (method: string, route: string, body?: unknown) =>
  gateway.api(route, {
    method,
    ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });

async function importBook(name: string, bytes: Buffer): Promise<Project> {
  const started = performance.now();
  const response = await send('POST', PROJECTS, { voice: VOICE, manuscript: { name, data: bytes.toString('base64') } });
  const seconds = (performance.now() - started) / 1000;
  expect(response.status, await response.clone().text()).toBe(201);
  const project = (await response.json()) as Project;
  const words = project.chapters.reduce((sum, c) => sum + c.text.split(/\s+/).length, 0);
  console.log(
    `${name}: ${(bytes.length / 1e6).toFixed(2)} MB, ${words} words imported in ${seconds.toFixed(2)} s: ${project.import_report?.summary}`,
  );
  return project;
}

function expectNovel(project: Project): void {
  expect([project.title, project.author, project.language]).toEqual([NOVEL.title, NOVEL.author, NOVEL.language]);
  const report = project.import_report!;
  expect(report.chapters).toBe(16);
  expect(report.parts).toEqual(['Part One: The Coast', 'Part Two: The Sea', 'Part Three: The Light']);
  expect(report.front_matter).toEqual(['title page', 'dedication', 'copyright']);
  expect(report.summary).toBe(
    '16 chapters, 3 parts, front matter: title page, dedication, copyright, 20 headings below the chapters kept as text',
  );
  expect(report.empty_headings).toEqual([{ level: 2, after: 'Chapter Fifteen' }]);
  expect(report.notes[0]).toBe('1 heading with no words left out (after “Chapter Fifteen”).');
  const [front, ...chapters] = project.chapters;
  // the front matter is named after what it holds, never after the file
  expect(front).toMatchObject({ title: 'Title page, dedication and copyright', front_matter: true });
  expect(front!.text).toContain('For my mother, who kept the light.');
  expect(chapters.map((c) => c.title)).toEqual([...NUMBERS.map((n) => `Chapter ${n}`), 'Epilogue']);
  expect(chapters.map((c) => c.part)).toEqual([
    ...Array(5).fill('Part One: The Coast'),
    ...Array(5).fill('Part Two: The Sea'),
    ...Array(6).fill('Part Three: The Light'),
  ]);
  // a part is said before its first chapter; a scene heading stays in its chapter's text
  expect(chapters[5]!.text.startsWith('Part Two: The Sea\n\nChapter Six\n\n')).toBe(true);
  expect(chapters[0]!.text.startsWith('Part One: The Coast\n\nChapter One\n\nCaerwythen, March 1880\n\n')).toBe(true);
  expect(chapters[1]!.text).toContain('\n\nCaerwythen, April 1887\n\n');
}

const NUMBERS = [
  'One',
  'Two',
  'Three',
  'Four',
  'Five',
  'Six',
  'Seven',
  'Eight',
  'Nine',
  'Ten',
  'Eleven',
  'Twelve',
  'Thirteen',
  'Fourteen',
  'Fifteen',
];

describe("a book's structure", () => {
  it('reads a 150,000-word DOCX and EPUB: metadata, front matter, parts, chapters, scene and empty headings', async () => {
    const markdown = novelMarkdown(150_000);
    const docx = await importBook('novel.docx', pandocNovel(markdown, 'docx'));
    expectNovel(docx);
    expect(docx.has_cover).toBe(false);
    const epub = await importBook('novel.epub', pandocNovel(markdown, 'epub'));
    expectNovel(epub);
    expect([epub.has_cover, epub.import_report!.metadata.cover]).toEqual([true, true]);
    // the same words either way
    expect(epub.chapters.map((c) => c.characters)).toEqual(docx.chapters.map((c) => c.characters));
  }, 180_000);

  it("renames, leaves out, merges and splits chapters; a render and an M4B export follow them, with the book's cover", async () => {
    const small = pandocNovel(novelMarkdown(300, 3), 'epub');
    const project = await importBook('small.epub', small);
    const id = project.project_id;
    expect(project.chapters.map((c) => c.title)).toEqual([
      'Title page, dedication and copyright',
      'Chapter One',
      'Chapter Two',
      'Chapter Three',
      'Epilogue',
    ]);
    const chapter = (index: number | string) => `${PROJECTS}/${id}/chapters/${index}`;
    const answer = async (response: Response, status = 200) => {
      expect(response.status, await response.clone().text()).toBe(status);
      return (await response.json()) as Project & { error: { code: string; message: string } };
    };
    // the front matter left out, Chapter Two renamed: its words stay as they are
    await answer(await send('PATCH', chapter(0), { excluded: true }));
    const renamed = await answer(await send('PATCH', chapter(2), { title: 'The Storm' }));
    expect(renamed.chapters[2]).toMatchObject({ title: 'The Storm', excluded: false });
    expect(renamed.chapters[2]!.text).toContain('\n\nChapter Two\n\n');
    // Chapter Three and the Epilogue merged, then split again where the Epilogue began
    const merged = await answer(await send('POST', `${chapter(3)}/merge`));
    expect(merged.chapters.map((c) => c.title)).toEqual([
      'Title page, dedication and copyright',
      'Chapter One',
      'The Storm',
      'Chapter Three',
    ]);
    const paragraphs = merged.chapters[3]!.text.split(/\n{2,}/);
    const split = await answer(await send('POST', `${chapter(3)}/split`, { paragraph: paragraphs.indexOf('Epilogue') }));
    expect(split.chapters.map((c) => c.title)).toEqual([
      'Title page, dedication and copyright',
      'Chapter One',
      'The Storm',
      'Chapter Three',
      'Epilogue',
    ]);
    expect(split.chapters[4]!.text).toBe('Epilogue\n\nThe lamp was lit again that night.');
    // bad requests answer in words
    expect((await answer(await send('POST', `${chapter(4)}/merge`), 400)).error.message).toContain('last chapter');
    expect((await answer(await send('POST', `${chapter(4)}/split`, { paragraph: 9 }), 400)).error.message).toContain('paragraphs');
    expect((await answer(await send('PATCH', chapter(99), { title: 'X' }), 404)).error.code).toBe('not_found');
    expect((await answer(await send('PATCH', chapter(1), { title: 'a\nb' }), 400)).error.code).toBe('invalid_request');

    const rendered = (await answer(await send('POST', `${PROJECTS}/${id}/render`))) as unknown as RenderResult;
    expect(rendered.excluded).toEqual([0]);
    expect(rendered.queued.map((q) => q.index)).toEqual([1, 2, 3, 4]);
    for (const { job_id } of rendered.queued) expect((await waitForJob(gateway, job_id)).status).toBe('done');
    const accepted = await send('POST', `${PROJECTS}/${id}/export`, { format: 'm4b' });
    expect(accepted.status).toBe(202);
    const { poll } = (await accepted.json()) as { poll: string };
    const made = await waitForExport(gateway, poll);
    expect(made.status, JSON.stringify(made.error)).toBe('done');
    const bytes = new Uint8Array(await (await gateway.api(made.file!.url)).arrayBuffer());
    const { format, common } = await parseBuffer(bytes, { mimeType: 'audio/mp4' }, { includeChapters: true });
    expect(format.chapters?.map((c) => c.title)).toEqual(['Chapter One', 'The Storm', 'Chapter Three', 'Epilogue']);
    expect([common.title, common.artist]).toEqual([NOVEL.title, NOVEL.author]);
    expect(common.picture?.[0]?.format).toBe('image/png');
  }, 240_000);
});
