import { describe, expect, it } from 'vitest';
import { adversarialLine, cpuMs, WELL_UNDER_A_SECOND_MS } from '../testing/cpu';
import { xhtmlDocument } from './epub';
import { htmlText } from './html-text';
import { attributesOf, tags } from './markup';

describe('markup', () => {
  it('lists tags with their names, comments and declarations among them', () => {
    const markup = '<?xml version="1.0"?><!DOCTYPE html><opf:item id="a"/>x<!-- <p> -->< y<br/></P>';
    expect([...tags(markup)].map((t) => [t.closing ? `/${t.name}` : t.name, markup.slice(t.start, t.end)])).toEqual([
      ['?', '<?xml version="1.0"?>'],
      ['!', '<!DOCTYPE html>'],
      ['item', '<opf:item id="a"/>'],
      ['!', '<!-- <p> -->'],
      ['br', '<br/>'],
      ['/p', '</P>'],
    ]);
  });

  it('reads attributes quoted either way, unquoted, or without a value', () => {
    const attributes = attributesOf(`<item ID="a b" href='c"d' media-type=x/y hidden linear = "no"/>`);
    expect(Object.fromEntries(attributes)).toEqual({ id: 'a b', href: 'c"d', 'media-type': 'x/y', linear: 'no' });
    expect(Object.fromEntries(attributesOf('<item id="never closed'))).toEqual({ id: 'never closed' });
  });

  it('reads HTML as words: blocks as paragraphs, hidden elements and comments dropped', () => {
    const html = '<head><title>T</title></head><p>One&nbsp;<b>two</b></p><script>x < y</script><!-- no --><div>Three<br>four</div>';
    expect(htmlText(html)).toBe('One two\n\nThree\nfour');
    expect(htmlText('a < b and c > d')).toBe('a < b and c > d');
    expect(htmlText('<p>kept<!-- never closed <p>gone')).toBe('kept');
  });

  it('reads an XHTML document as its title and blocks, headings with their level, front matter as it declares itself', () => {
    expect(xhtmlDocument('<html><head><title>T</title></head><body><h2>H</h2><p>Text.</p></body></html>')).toEqual({
      title: 'T',
      blocks: [{ heading: 2, text: 'H' }, { text: 'Text.' }],
    });
    expect(xhtmlDocument('<title>T</title><body epub:type="frontmatter"><section epub:type="dedication"><p>For A.</p>')).toEqual({
      title: 'T',
      blocks: [{ text: 'For A.', front: 'dedication' }],
      front: 'dedication',
    });
    expect(xhtmlDocument('<body> </body>').blocks).toEqual([]);
  });

  it.each([
    ['tags that never close', adversarialLine('<')],
    ['named tags that never close', adversarialLine('<p ')],
    ['comments that never close', adversarialLine('<!--')],
    ['hidden elements that never close', adversarialLine('<script>')],
    ['entity-like runs', adversarialLine('&a')],
  ])('reads a 100,000-character line of %s in well under a second of CPU', (_name, line) => {
    expect(cpuMs(() => htmlText(line))).toBeLessThan(WELL_UNDER_A_SECOND_MS);
  });

  it.each([
    ['<body> openings that never close', adversarialLine('<body>')],
    ['headings that never close', adversarialLine('<h1>')],
    ['titles that never close', adversarialLine('<title>')],
  ])('reads an XHTML chapter of %s in well under a second of CPU', (_name, line) => {
    expect(cpuMs(() => xhtmlDocument(line))).toBeLessThan(WELL_UNDER_A_SECOND_MS);
  });

  it('reads a tag of 100,000 characters of unclosed quotes in well under a second of CPU', () => {
    const tag = `<item${adversarialLine(' id="')}>`;
    expect(cpuMs(() => attributesOf(tag))).toBeLessThan(WELL_UNDER_A_SECOND_MS);
    expect(cpuMs(() => [...tags(adversarialLine('<rootfile '))])).toBeLessThan(WELL_UNDER_A_SECOND_MS);
  });
});
