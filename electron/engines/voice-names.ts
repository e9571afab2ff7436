/** Display names for voices whose engines list only raw ids: "SLT (US English, female, HTS)". */

/** Language names in the style of the other engines' voice names ("US English", not "American English"). */
const LANGUAGE_NAMES: Record<string, string> = {
  en: 'English',
  'en-US': 'US English',
  'en-GB': 'British English',
  'en-GB-scotland': 'Scottish English',
  'pt-BR': 'Brazilian Portuguese',
};

/** An English name for a BCP 47 tag; null for "und" or a tag nobody can name. */
export function languageName(tag: string): string | null {
  if (!tag || tag === 'und') return null;
  if (LANGUAGE_NAMES[tag]) return LANGUAGE_NAMES[tag];
  try {
    const name = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' }).of(tag);
    return name ?? null;
  } catch {
    return null;
  }
}

/** "Name (language, gender, detail)", leaving out what is unknown. */
export function describeVoice(
  name: string,
  details: { language?: string; gender?: string | undefined; technique?: string | undefined },
): string {
  const parts = [details.language ? languageName(details.language) : null, details.gender, details.technique].filter(Boolean);
  return parts.length ? `${name} (${parts.join(', ')})` : name;
}

/**
 * Speakers known by their initials, written in capitals: the CMU ARCTIC speakers (Festival's
 * cmu_us_*_arctic and cmu_us_*_cg voices, RHVoice's English voices, flite's), the Italian diphone
 * speakers PC and LP, and MBROLA databases (us1, en1).
 */
const INITIALS = new Set([
  'pc',
  'lp',
  'aew',
  'ahw',
  'aup',
  'awb',
  'axb',
  'bdl',
  'clb',
  'eey',
  'fem',
  'gka',
  'jmk',
  'ksp',
  'ljm',
  'lnh',
  'rms',
  'rxr',
  'slt',
]);

export function speakerName(speaker: string): string {
  if (INITIALS.has(speaker.toLowerCase()) || /^[a-z]{1,3}\d+$/i.test(speaker)) return speaker.toUpperCase();
  return speaker
    .split(/([-_ ])/)
    .map((part) => (part.length > 1 ? part[0]!.toUpperCase() + part.slice(1) : part))
    .join('')
    .replace(/_/g, ' ');
}

/** Festival's synthesis methods, as the last part of a voice name says them. */
const FESTIVAL_TECHNIQUES: Record<string, string> = {
  hts: 'HTS',
  diphone: 'diphone',
  mbrola: 'MBROLA',
  clunits: 'unit selection',
  cg: 'clustergen',
  ldom: 'limited domain',
  multisyn: 'unit selection',
};
/** Parts of Festival voice names that are neither the speaker nor the method. */
const FESTIVAL_NOISE = new Set(['cmu', 'nitech', 'cstr', 'upc', 'us', 'uk', 'ca', 'es', 'arctic']);

/**
 * A Festival voice's display name from its id (e.g. cmu_us_slt_arctic_hts → "SLT (US English,
 * female, HTS)", kal_diphone → "Kal (US English, male, diphone)"), with the language and gender
 * Festival's voice description gives.
 */
export function festivalVoiceName(id: string, language: string, gender: string | undefined): string {
  const parts = id.toLowerCase().split('_');
  const technique = FESTIVAL_TECHNIQUES[parts[parts.length - 1]!];
  const rest = (technique ? parts.slice(0, -1) : parts).filter((part) => !FESTIVAL_NOISE.has(part));
  const speaker = rest.length ? rest.map(speakerName).join(' ') : id.replace(/_/g, ' ');
  return describeVoice(speaker, { language, gender, technique });
}
