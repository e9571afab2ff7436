/**
 * A segment as the text its voice reads: say-as expanded in the voice's language, phonemes inline
 * where the engine reads their alphabet (eSpeak NG: `[[…]]`), else the element's content, `<sub>`'s
 * alias; `<s>` and `<p>` as the line breaks the chunker reads as sentence and paragraph ends. And
 * the same segment as its text shows to people (read-along, captions, a job's title): the
 * elements' content, as written.
 */
import type { PhonemeAlphabet } from '../contract';
import { ipaToEspeak } from './ipa';
import { spanning, type SsmlSegment } from './parse';
import { sayAs } from './say-as';

export interface VoiceTraits {
  /** BCP 47 */
  language: string;
  /** The phoneme alphabet the engine reads inline, if any (EngineAdapter.phonemeAlphabet). */
  phonemeAlphabet?: PhonemeAlphabet | undefined;
}

/** Text with the markup offset (code points) of each of its code points. */
export interface PlacedText {
  text: string;
  at: number[];
}

export interface RenderedText extends PlacedText {
  /** As written: what people are shown of this segment. */
  shown: PlacedText;
}

/** eSpeak's phoneme brackets close at "]]": phonemes holding brackets could end them early and read the rest as text. */
const ESPEAK_PHONEMES = /^[\x20-\x7e]+$/;

export function renderSegment(segment: SsmlSegment, voice: VoiceTraits): RenderedText {
  const spoken = placer();
  const shown = placer();
  for (const piece of segment.pieces) {
    switch (piece.kind) {
      case 'text':
        spoken.add(piece.text, piece.at);
        shown.add(piece.text, piece.at);
        break;
      case 'boundary': {
        const breakText = piece.level === 'paragraph' ? '\n\n' : '\n';
        spoken.add(breakText, spanning(breakText, piece.at, piece.at));
        shown.add(breakText, spanning(breakText, piece.at, piece.at));
        break;
      }
      case 'sub':
        spoken.add(piece.alias, spanning(piece.alias, piece.start, piece.end));
        shown.add(piece.content, spanning(piece.content, piece.start, piece.end));
        break;
      case 'say-as': {
        const words = sayAs(piece.content, piece.interpretAs, piece.format, voice.language);
        spoken.add(words, spanning(words, piece.start, piece.end));
        shown.add(piece.content, spanning(piece.content, piece.start, piece.end));
        break;
      }
      case 'phoneme': {
        const said = phonemesFor(piece.alphabet, piece.ph, voice) ?? piece.content;
        spoken.add(said, spanning(said, piece.start, piece.end));
        shown.add(piece.content, spanning(piece.content, piece.start, piece.end));
        break;
      }
    }
  }
  return { ...spoken.placed, shown: shown.placed };
}

function placer() {
  const placed: PlacedText = { text: '', at: [] };
  const add = (piece: string, offsets: number[]) => {
    placed.text += piece;
    for (const offset of offsets) placed.at.push(offset); // a spread of a long text's offsets would overflow the stack
  };
  return { placed, add };
}

/**
 * A reader of what `shown` holds between two markup offsets, whitespace runs as one space: the
 * written form of a sentence whose span in the markup is [start, end). Offsets never go down along
 * a text, so the two ends are found by bisection.
 */
export function shownBetween(shown: PlacedText): (start: number, end: number) => string {
  // the UTF-16 index of each code point, and the end
  const units: number[] = [];
  for (let i = 0; i < shown.text.length; i += shown.text.codePointAt(i)! > 0xffff ? 2 : 1) units.push(i);
  units.push(shown.text.length);
  return (start, end) =>
    shown.text.slice(units[firstAtOrAfter(shown.at, start)], units[firstAtOrAfter(shown.at, end)]).replace(/\s+/g, ' ').trim();
}

function firstAtOrAfter(at: readonly number[], offset: number): number {
  let low = 0;
  let high = at.length;
  while (low < high) {
    const middle = (low + high) >> 1;
    if (at[middle]! < offset) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The inline phonemes the engine reads (IPA converted for eSpeak), or null when it reads none of these. */
function phonemesFor(alphabet: string, ph: string, voice: VoiceTraits): string | null {
  if (voice.phonemeAlphabet !== 'x-espeak') return null;
  const phonemes = alphabet === 'x-espeak' ? ph.trim() : alphabet === 'ipa' ? ipaToEspeak(ph) : null;
  if (!phonemes || !ESPEAK_PHONEMES.test(phonemes) || phonemes.includes('[') || phonemes.includes(']')) return null;
  return ` [[${phonemes}]] `;
}
