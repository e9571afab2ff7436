import { strToU8, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readEpub } from './epub';
import { UnreadableManuscript } from './zip';

const LIMITS = { inflatedBytes: 64 * 1024 * 1024, files: 10_000 };

const CONTAINER = `<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container">
<rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`;
const OPF = `<package xmlns="http://www.idpf.org/2007/opf" version="3.0"><manifest>
<item id="cover" href="cover.xhtml" media-type="application/xhtml+xml"/>
<item href="text/ch%201.xhtml" id="c1" media-type="application/xhtml+xml"/>
<item id="c2" href="text/ch2.xhtml" media-type="application/xhtml+xml"/>
<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>
</manifest><spine><itemref idref="cover"/><itemref idref="nav" linear="no"/><itemref idref="c2"/><itemref idref="c1"/></spine></package>`;
const page = (title: string, body: string) =>
  `<?xml version="1.0"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml"><head><title>${title}</title><style>p{}</style></head><body>${body}</body></html>`;

function epub(files: Record<string, string>): Uint8Array {
  return zipSync(Object.fromEntries(Object.entries(files).map(([name, text]) => [name, strToU8(text)])));
}

describe('readEpub', () => {
  it('reads the spine in order as chapters, titled by their headings, entities decoded', () => {
    const { chapters } = readEpub(
      epub({
        'META-INF/container.xml': CONTAINER,
        'OEBPS/content.opf': OPF,
        'OEBPS/cover.xhtml': page('Cover', '<div><img src="c.jpg"/></div>'),
        'OEBPS/nav.xhtml': page('Contents', '<p>Contents</p>'),
        'OEBPS/text/ch 1.xhtml': page('One', '<h1>The First</h1><p>It was&nbsp;dark &amp; cold&hellip;</p><p>Line<br/>break.</p>'),
        'OEBPS/text/ch2.xhtml': page('Two', '<section><p>No heading&#8212;here &#x2019;s.</p></section>'),
      }),
      'book',
      LIMITS,
    );
    // the document with no heading comes before any: it is the front matter
    expect(chapters).toEqual([
      { title: 'Front matter', text: 'No heading—here ’s.', front_matter: true },
      { title: 'The First', text: 'The First\n\nIt was dark & cold…\n\nLine\nbreak.' },
    ]);
  });

  it('refuses a file that is not an EPUB, saying why', () => {
    expect(() => readEpub(strToU8('not a zip'), 'book', LIMITS)).toThrow(UnreadableManuscript);
    expect(() => readEpub(epub({ 'a.txt': 'x' }), 'book', LIMITS)).toThrow('META-INF/container.xml');
  });
});
