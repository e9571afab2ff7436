/**
 * IPA as eSpeak NG's phoneme mnemonics (what `espeak-ng -x` prints), for `<phoneme alphabet="ipa">`
 * on eSpeak voices: the symbols of English (General American and RP), longest match first. IPA
 * with a symbol outside the table is not guessed at: the element's text is spoken instead.
 */
const TABLE: Readonly<Record<string, string>> = {
  // diphthongs and affricates before their parts
  eɪ: 'eI',
  aɪ: 'aI',
  ɔɪ: 'OI',
  əʊ: 'oU',
  oʊ: 'oU',
  aʊ: 'aU',
  ɪə: 'i@',
  eə: 'e@',
  ɛə: 'e@',
  ʊə: 'U@',
  tʃ: 'tS',
  dʒ: 'dZ',
  // vowels
  i: 'i',
  ɪ: 'I',
  e: 'e',
  ɛ: 'E',
  æ: 'a',
  a: 'a',
  ɑ: 'A',
  ɒ: '0',
  ɔ: 'O',
  o: 'o',
  ʊ: 'U',
  u: 'u',
  ʌ: 'V',
  ə: '@',
  ɜ: '3',
  ɚ: '3',
  ɝ: '3:',
  ɐ: 'a#',
  // consonants
  p: 'p',
  b: 'b',
  t: 't',
  d: 'd',
  k: 'k',
  g: 'g',
  ɡ: 'g',
  f: 'f',
  v: 'v',
  θ: 'T',
  ð: 'D',
  s: 's',
  z: 'z',
  ʃ: 'S',
  ʒ: 'Z',
  h: 'h',
  m: 'm',
  n: 'n',
  ŋ: 'N',
  l: 'l',
  ɫ: 'l',
  r: 'r',
  ɹ: 'r',
  ɾ: 't#',
  w: 'w',
  j: 'j',
  ʔ: '?',
  x: 'x',
  // stress and length
  ˈ: "'",
  ˌ: ',',
  ː: ':',
  '.': '',
  ' ': '_',
};
const LONGEST = Math.max(...Object.keys(TABLE).map((key) => key.length));

/** eSpeak mnemonics for IPA, or null when a symbol has no entry. */
export function ipaToEspeak(ipa: string): string | null {
  const text = ipa
    .normalize('NFC')
    .trim()
    .replace(/^\/|\/$|^\[|\]$/g, '');
  let out = '';
  for (let i = 0; i < text.length;) {
    let length = LONGEST;
    while (length > 0 && TABLE[text.slice(i, i + length)] === undefined) length--;
    if (length === 0) return null;
    out += TABLE[text.slice(i, i + length)];
    i += length;
  }
  return out || null;
}
