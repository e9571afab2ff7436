/**
 * Reads an SSML document (the subset of docs/ssml.md) into segments: runs of text spoken with one
 * voice and one prosody, each with the silence after it. A segment ends where the voice or the
 * prosody changes or a `<break>` stands; `<p>` and `<s>` stay inside a segment as the line breaks
 * the chunker reads as paragraphs and sentences. Every character keeps where it came from in the
 * markup (code points), for sentence timings. XML by saxes under the gateway's XML policy
 * (contract/xml.ts: no DOCTYPE, a depth limit); any fault is an ApiError `invalid_ssml` with line
 * and column, never another exception.
 */
import type { SaxesParser, SaxesTagPlain } from 'saxes';
import { ApiError } from '../contract';
import { localName, MAX_XML_DEPTH, strictXmlParser } from '../contract/xml';
import { PARAGRAPH_PAUSE_MS, SENTENCE_PAUSE_MS } from '../jobs/chunker';
import { codePointIndex, positionOf } from './positions';
import { breakMs, emphasisOf, MAX_BREAK_MS, prosodyOf, sameProsody, SsmlValueError, type ProsodyValues } from './values';

/** A part of a segment, with its place in the markup (code points). */
export type Piece =
  /** `at`: the markup offset of each code point of `text`. */
  | { kind: 'text'; text: string; at: number[] }
  | { kind: 'boundary'; level: Boundary; at: number }
  /** `<sub alias>`: the alias is said, the content is what the text shows. */
  | { kind: 'sub'; alias: string; content: string; start: number; end: number }
  | { kind: 'say-as'; content: string; interpretAs: string; format: string | undefined; start: number; end: number }
  | { kind: 'phoneme'; content: string; alphabet: string; ph: string; start: number; end: number };

type Boundary = 'sentence' | 'paragraph';

export interface SsmlSegment {
  pieces: Piece[];
  /** The voice id `<voice name>` gave; undefined: the request's voice. */
  voice: string | undefined;
  prosody: ProsodyValues;
  /** Silence after it, in milliseconds (none after the last segment). */
  pauseAfterMs: number;
}

/** Voice and prosody switches, breaks: each starts a segment, which is at least one engine call. */
export const MAX_SEGMENTS = 10_000;
/** Elements inside elements: the gateway's limit for all XML it reads. */
export const MAX_DEPTH = MAX_XML_DEPTH;

const BOUNDARY_MS: Readonly<Record<Boundary, number>> = { sentence: SENTENCE_PAUSE_MS, paragraph: PARAGRAPH_PAUSE_MS };

interface Frame {
  voice: string | undefined;
  prosody: ProsodyValues;
}

/** Content of `<say-as>`, `<sub>` or `<phoneme>`, collected until its end tag. */
interface Capture {
  element: string;
  attributes: Record<string, string>;
  depth: number;
  start: number;
  text: string;
}

/** The segments of `markup`; `base` is the request's rate, pitch and volume, which SSML's "default" means. */
export function parseSsml(markup: string, base: ProsodyValues): SsmlSegment[] {
  return new SsmlReader(markup, base).read();
}

class SsmlReader {
  private readonly parser: SaxesParser;
  private readonly segments: SsmlSegment[] = [];
  private readonly frames: Frame[];
  private current: SsmlSegment;
  /** Whether the current segment has anything to say yet (not only whitespace and boundaries). */
  private currentSpeaks = false;
  /** Since the last speech: the strongest boundary met, and the breaks' silence (undefined: no break). */
  private boundary: Boundary | undefined;
  private breakMs: number | undefined;
  private capture: Capture | undefined;
  private rootSeen = false;
  /** Where the last event ended: the next text starts there. */
  private lastEnd = 0;
  private readonly codePointAt: Uint32Array;

  constructor(
    private readonly markup: string,
    private readonly base: ProsodyValues,
  ) {
    this.frames = [{ voice: undefined, prosody: base }];
    this.current = this.segmentFor(this.frames[0]!);
    this.codePointAt = codePointIndex(markup);
    this.parser = strictXmlParser({
      open: (tag, depth) => this.guard(() => this.open(tag, depth)),
      close: (tag, depth) => this.guard(() => this.close(tag, depth)),
      text: (text) => this.guard(() => this.text(text, this.lastEnd, this.parser.position - 1)),
      cdata: (text) => this.guard(() => this.text(text, this.parser.position - 3 - text.length, this.parser.position - 3)),
      comment: () => (this.lastEnd = this.parser.position + 1),
      instruction: () => (this.lastEnd = this.parser.position),
      fail: (message, atTag) => (atTag ? this.failAtTag(message) : this.fail(message)),
    });
  }

  read(): SsmlSegment[] {
    this.parser.write(this.markup).close();
    if (!this.rootSeen) this.fail('The text is not an SSML document: it must be one <speak> element.');
    this.endSegment(0);
    if (this.segments.length === 0) this.fail('The SSML has nothing to speak.');
    return this.segments;
  }

  private open(tag: SaxesTagPlain, depth: number): void {
    this.lastEnd = this.parser.position;
    const name = localName(tag.name);
    if (depth === 1) {
      if (name !== 'speak') this.failAtTag(`The root element is <${tag.name}>; an SSML document is one <speak> element.`);
      this.rootSeen = true;
    }
    if (this.capture) return; // inside say-as, sub or phoneme: only their text counts, their tags open no frame
    const attributes = tag.attributes;
    const frame = this.frame();
    let next: Frame = frame;
    switch (name) {
      case 'p':
      case 's':
        this.mark(name === 'p' ? 'paragraph' : 'sentence');
        break;
      case 'break':
        this.pause(breakMs(attributes));
        break;
      case 'prosody':
        next = { ...frame, prosody: prosodyOf(attributes, frame.prosody, this.base) };
        break;
      case 'emphasis':
        next = { ...frame, prosody: emphasisOf(attributes.level, frame.prosody) };
        break;
      case 'voice':
        next = { ...frame, voice: attributes.name?.trim() || frame.voice };
        break;
      case 'say-as':
        if (!attributes['interpret-as']) this.failAtTag('<say-as> needs an interpret-as attribute.');
        this.startCapture(name, attributes, depth);
        break;
      case 'sub':
        if (attributes.alias === undefined) this.failAtTag('<sub> needs an alias attribute.');
        this.startCapture(name, attributes, depth);
        break;
      case 'phoneme':
        if (!attributes.ph) this.failAtTag('<phoneme> needs a ph attribute.');
        this.startCapture(name, attributes, depth);
        break;
    }
    this.frames.push(next); // saxes closes self-closing tags too, which pops it
  }

  private close(tag: SaxesTagPlain, depth: number): void {
    this.lastEnd = this.parser.position;
    const capture = this.capture;
    if (capture && capture.depth !== depth) return;
    if (capture) this.endCapture(capture, this.parser.position - tag.name.length - 3);
    this.frames.pop();
    const name = localName(tag.name);
    if (name === 'p' || name === 's') this.mark(name === 'p' ? 'paragraph' : 'sentence');
  }

  private text(text: string, from: number, to: number): void {
    this.lastEnd = this.parser.position;
    if (this.capture) {
      this.capture.text += text;
      return;
    }
    const at = this.offsets(text, from, to);
    let spoken = '';
    const kept: number[] = [];
    let i = 0;
    for (const char of text) {
      const space = /\s/.test(char);
      if (!space || !spoken.endsWith(' ')) {
        spoken += space ? ' ' : char;
        kept.push(at[i]!);
      }
      i++;
    }
    if (/\S/.test(spoken)) this.speak({ kind: 'text', text: spoken, at: kept });
    else if (this.currentSpeaks) this.current.pieces.push({ kind: 'text', text: ' ', at: kept });
  }

  private startCapture(element: string, attributes: Record<string, string>, depth: number): void {
    this.capture = { element, attributes, depth, start: this.codePointAt[this.parser.position]!, text: '' };
  }

  private endCapture(capture: Capture, endIndex: number): void {
    this.capture = undefined;
    const start = capture.start;
    const end = Math.max(start, this.codePointAt[Math.max(0, endIndex)]!);
    const content = capture.text.replace(/\s+/g, ' ').trim();
    const { attributes } = capture;
    if (capture.element === 'sub') {
      const alias = attributes.alias!.replace(/\s+/g, ' ').trim();
      if (alias) this.speak({ kind: 'sub', alias, content, start, end });
    } else if (capture.element === 'say-as') {
      if (content) this.speak({ kind: 'say-as', content, interpretAs: attributes['interpret-as']!, format: attributes.format, start, end });
    } else {
      const alphabet = attributes.alphabet ?? 'ipa';
      this.speak({ kind: 'phoneme', content, alphabet, ph: attributes.ph!, start, end });
    }
  }

  /** Adds speech to the current segment, or ends it and starts the next where voice, prosody or a break say so. */
  private speak(piece: Piece): void {
    const frame = this.frame();
    const current = this.current;
    if (!this.currentSpeaks) {
      this.current = this.segmentFor(frame);
    } else if (this.breakMs !== undefined || current.voice !== frame.voice || !sameProsody(current.prosody, frame.prosody)) {
      this.endSegment(this.breakMs ?? (this.boundary ? BOUNDARY_MS[this.boundary] : 0));
      this.current = this.segmentFor(frame);
    } else if (this.boundary) {
      current.pieces.push({ kind: 'boundary', level: this.boundary, at: firstOffset(piece) });
    }
    this.boundary = undefined;
    this.breakMs = undefined;
    this.current.pieces.push(piece);
    this.currentSpeaks = true;
  }

  private mark(level: Boundary): void {
    if (!this.currentSpeaks) return;
    if (this.boundary !== 'paragraph') this.boundary = level;
  }

  private pause(ms: number): void {
    if (!this.currentSpeaks) return; // silence before any speech is dropped (docs/ssml.md)
    this.breakMs = Math.min(MAX_BREAK_MS, (this.breakMs ?? 0) + ms);
  }

  private endSegment(pauseAfterMs: number): void {
    if (!this.currentSpeaks) return;
    if (this.segments.length >= MAX_SEGMENTS) {
      this.fail(`The SSML makes more than ${MAX_SEGMENTS} segments (voice or prosody changes and breaks).`);
    }
    this.current.pauseAfterMs = pauseAfterMs;
    this.segments.push(this.current);
    this.currentSpeaks = false;
  }

  private segmentFor(frame: Frame): SsmlSegment {
    return { pieces: [], voice: frame.voice, prosody: frame.prosody, pauseAfterMs: 0 };
  }

  private frame(): Frame {
    return this.frames[this.frames.length - 1]!;
  }

  /** Each code point's offset in the markup; where entities made the text shorter than its source, in proportion. */
  private offsets(text: string, from: number, to: number): number[] {
    const start = this.codePointAt[Math.max(0, from)]!;
    const end = this.codePointAt[Math.max(from, to)]!;
    const count = [...text].length;
    if (count === end - start) return Array.from({ length: count }, (_, i) => start + i);
    return Array.from({ length: count }, (_, i) => start + Math.floor((i * (end - start)) / Math.max(1, count)));
  }

  /** Runs a step, turning a bad attribute value into invalid_ssml at its element. */
  private guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      if (error instanceof SsmlValueError) this.failAtTag(error.message);
      throw error;
    }
  }

  /** Fails at the start of the element just read (the `<` before the parser's position). */
  private failAtTag(message: string): never {
    const open = this.markup.lastIndexOf('<', Math.max(0, this.parser.position - 1));
    const { line, column } = positionOf(this.markup, Math.max(0, open));
    return this.fail(message, line, column);
  }

  private fail(message: string, line = this.parser.line, column = Math.max(1, this.parser.column)): never {
    const sentence = message.endsWith('.') ? message : `${message}.`;
    throw new ApiError('invalid_ssml', `Invalid SSML at line ${line}, column ${column}: ${capitalize(sentence)}`, {
      position: { line, column },
    });
  }
}

/** Text put in for an element's content (an alias, an expansion): its first code point at the content's start, its last at the end. */
export function spanning(text: string, start: number, end: number): number[] {
  const count = [...text].length;
  return Array.from({ length: count }, (_, i) => (i === count - 1 ? Math.max(start, end - 1) : start));
}

function firstOffset(piece: Piece): number {
  if (piece.kind === 'text') return piece.at[0]!;
  return piece.kind === 'boundary' ? piece.at : piece.start;
}

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);
