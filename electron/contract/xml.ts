/**
 * The XML the gateway reads from clients (SSML, PLS lexicon files), under one policy: no DOCTYPE,
 * so no entity is ever defined or expanded (no "billion laughs", no external files), and elements
 * at most MAX_XML_DEPTH deep (SSML needs a handful of levels, PLS three; a deep nest is an attack
 * on the reader). saxes reads it, as a stream of events: nothing builds a tree of the document.
 * Not in the contract's index: the studio reads no XML, and saxes stays out of its bundle.
 */
import { SaxesParser, type SaxesTagPlain } from 'saxes';

export const MAX_XML_DEPTH = 64;

export const DOCTYPE_REFUSED = 'A DOCTYPE is not allowed: no entity is ever defined or expanded';

/** What a reader does with the document's events; each is optional but `fail`. */
export interface XmlEvents {
  /** An element opened, at `depth` (the root is 1). */
  open?(tag: SaxesTagPlain, depth: number): void;
  /** An element closed; `depth` is its own. */
  close?(tag: SaxesTagPlain, depth: number): void;
  text?(text: string): void;
  cdata?(text: string): void;
  comment?(): void;
  instruction?(): void;
  /**
   * The document is not well-formed or breaks the policy: throws the reader's own error.
   * `atTag`: the fault is the element just opened (too deep), not the parser's position.
   */
  fail(message: string, atTag: boolean): never;
}

/** A saxes parser under the policy, passing its events on; the caller writes the document to it. */
export function strictXmlParser(events: XmlEvents): SaxesParser {
  const parser = new SaxesParser();
  let depth = 0;
  // saxes prefixes its messages with "line:column: ", which the reader says its own way
  parser.on('error', (error) => events.fail(error.message.replace(/^\d+:\d+: /, ''), false));
  parser.on('doctype', () => events.fail(DOCTYPE_REFUSED, false));
  parser.on('opentag', (tag) => {
    if (++depth > MAX_XML_DEPTH) events.fail(`Elements are nested more than ${MAX_XML_DEPTH} deep`, true);
    events.open?.(tag, depth);
  });
  parser.on('closetag', (tag) => events.close?.(tag, depth--));
  parser.on('text', (text) => events.text?.(text));
  parser.on('cdata', (text) => events.cdata?.(text));
  parser.on('comment', () => events.comment?.());
  parser.on('processinginstruction', () => events.instruction?.());
  return parser;
}

/** The local part of a possibly prefixed name: "pls:lexeme" → "lexeme". */
export const localName = (name: string) => name.slice(name.indexOf(':') + 1);
