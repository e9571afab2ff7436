/**
 * A segment as the text its voice reads: say-as expanded in the voice's language, phonemes inline
 * where the engine reads their alphabet (eSpeak NG: `[[…]]`), else the element's content;
 * `<s>` and `<p>` as the line breaks the chunker reads as sentence and paragraph ends.
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

export interface RenderedText {
  text: string;
  /** The markup offset (code points) of each code point of `text`. */
  at: number[];
}

/** eSpeak's phoneme brackets close at "]]": phonemes holding brackets could end them early and read the rest as text. */
const ESPEAK_PHONEMES = /^[\x20-\x7e]+$/;

export function renderSegment(segment: SsmlSegment, voice: VoiceTraits): RenderedText {
  let text = '';
  const at: number[] = [];
  const add = (piece: string, offsets: number[]) => {
    text += piece;
    for (const offset of offsets) at.push(offset); // a spread of a long text's offsets would overflow the stack
  };
  for (const piece of segment.pieces) {
    switch (piece.kind) {
      case 'text':
        add(piece.text, piece.at);
        break;
      case 'boundary': {
        const breakText = piece.level === 'paragraph' ? '\n\n' : '\n';
        add(breakText, spanning(breakText, piece.at, piece.at));
        break;
      }
      case 'say-as': {
        const words = sayAs(piece.content, piece.interpretAs, piece.format, voice.language);
        add(words, spanning(words, piece.start, piece.end));
        break;
      }
      case 'phoneme': {
        const spoken = phonemesFor(piece.alphabet, piece.ph, voice) ?? piece.content;
        add(spoken, spanning(spoken, piece.start, piece.end));
        break;
      }
    }
  }
  return { text, at };
}

/** The inline phonemes the engine reads (IPA converted for eSpeak), or null when it reads none of these. */
function phonemesFor(alphabet: string, ph: string, voice: VoiceTraits): string | null {
  if (voice.phonemeAlphabet !== 'x-espeak') return null;
  const phonemes = alphabet === 'x-espeak' ? ph.trim() : alphabet === 'ipa' ? ipaToEspeak(ph) : null;
  if (!phonemes || !ESPEAK_PHONEMES.test(phonemes) || phonemes.includes('[') || phonemes.includes(']')) return null;
  return ` [[${phonemes}]] `;
}
