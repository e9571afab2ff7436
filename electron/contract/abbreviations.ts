/**
 * Words written with a full stop that does not end a sentence, by language (docs/lexicon.md,
 * "Sentences"). Kept to what narrators meet in prose: titles before names, Latin and common
 * shortenings, and words that stand before a number ("No. 5", "S. 12"). Words that often end a
 * sentence ("etc.", "usw.", "Inc.", "Jr.", "Str.") are left out: a sentence cut after one of them
 * is the lesser harm than two sentences read as one. Single letters ("J. R. R.", "z. B."), dotted
 * short forms ("U.S.", "e.g.", "Dott.ssa") and numbers with a decimal point are recognised by
 * their shape in every language, not listed.
 */

interface LanguageAbbreviations {
  /** Never end a sentence: "Dr. Watson", "Hr. Meier". */
  titles: string;
  /** Do not end a sentence when a number follows: "No. 5", "Nr. 3", "pág. 12". */
  numbered?: string;
  /** Numbers written as ordinals ("am 3. Mai"): a number and a full stop end no sentence after these words or before these. */
  ordinals?: { after: string; before: string };
}

const ENGLISH_MONTHS = 'Jan Feb Mar Apr Jun Jul Aug Sep Sept Oct Nov Dec';

/** By primary language subtag; see `ALIASES` for languages that share a list. */
const BY_LANGUAGE: Record<string, LanguageAbbreviations> = {
  en: {
    titles:
      'Mr Mrs Ms Mx Messrs Mmes Dr Drs Prof Profs St Sts Mt Ft Capt Cmdr Col Gen Lt Maj Sgt Cpl Adm Brig Rev Revd Hon Gov Sen Rep Pres Supt Insp Fr vs cf viz approx ca',
    numbered: `No Nos Vol Vols Fig Figs pp ch Ch chap Chap Sec Art Eq Ex Op Pt Tab ${ENGLISH_MONTHS}`,
  },
  de: {
    titles: 'Dr Prof Hr Hrn Fr Frl St Dipl Ing Mag bzw ca vgl sog evtl ggf inkl zzgl exkl geb gest',
    numbered: 'Nr Bd Bde Kap Abs Art Abb Tab Tel Ziff Jan Feb Mär Apr Aug Sep Sept Okt Nov Dez',
    ordinals: {
      after: 'am im vom zum zur bis seit ab der die das den dem des ihr ihre ihrem ihren sein seine seinem seinen jeden jedem',
      before: 'Januar Jänner Februar März April Mai Juni Juli August September Oktober November Dezember',
    },
  },
  fr: {
    titles: 'MM Mme Mmes Mlle Mlles Dr Pr Me Mgr St Ste Sts Stes Vve av bd boul env cf vs',
    numbered: 'pp vol chap art fig éd janv févr avr juil sept oct nov déc',
  },
  es: {
    titles:
      'Sr Sra Srta Sres Sras Dña Dr Dra Lic Lcda Ing Prof Profa Arq Ud Uds Vd Vds Excmo Excma Ilmo Ilma Sto Sta Mons Gral Cnel Tte EE UU ej aprox Avda',
    numbered: 'pág págs núm vol cap art fig ene feb mar abr jun jul ago sep sept oct nov dic',
  },
  it: {
    titles: 'Sig Sigg Sigra Dott Dottssa Prof Profssa Avv Ing Arch Geom Rag On Mons Gent Egr Spett Sen Dr Ss',
    numbered: 'pag pagg vol cap art fig gen feb mar apr mag giu lug ago set ott nov dic',
  },
  pt: {
    titles: 'Sr Sra Srta Srs Dr Dra Drs Prof Profa Eng Exmo Exma Ilmo Ilma Sto Sta Av',
    numbered: 'pág vol cap art fig jan fev mar abr mai jun jul ago set out nov dez',
  },
  nl: {
    titles: 'Dhr dhr Mevr mevr Mw mw Mej Dr Drs Ir Ing Prof Mr St bijv bv ca vgl zgn resp',
    numbered: 'nr blz vol hfst art fig jan feb mrt apr jun jul aug sep sept okt nov dec',
  },
  ca: {
    titles: 'Sr Sra Srta Dr Dra Prof Mn St Sta',
    numbered: 'pàg núm vol cap art gen febr abr jul ag set oct nov des',
  },
  sv: { titles: 'Dr Prof St ca resp', numbered: 'nr sid kap jan feb mar apr jun jul aug sep sept okt nov dec' },
  da: { titles: 'Dr Prof hr fr ca ds evt jf mht vedr sml', numbered: 'nr kap jan feb mar apr jun jul aug sep sept okt nov dec' },
  nb: { titles: 'Dr Prof hr fr ca evt jf mht vedr sml ifm', numbered: 'nr kap jan feb mar apr jun jul aug sep sept okt nov des' },
  fi: { titles: 'esim ks mm ns vrt prof Dr', numbered: 'nro sivu luku' },
  pl: { titles: 'dr prof mgr inż hab doc św ks płk ppłk kpt por gen ul al os np tzw tj ok', numbered: 'nr str' },
  cs: { titles: 'Dr Ing Mgr MUDr JUDr PhDr RNDr MVDr PaedDr Bc prof doc sv ul nám např tzv tj mj resp cca', numbered: 'str kap' },
  hr: { titles: 'dr prof mr ing sv ul npr tzv tj gđa gđica др проф мр инж св ул нпр тзв тј', numbered: 'br str бр стр' },
  sl: { titles: 'dr prof mag ing sv npr oz tj ga gdč', numbered: 'št str' },
  hu: { titles: 'dr Dr prof id ifj özv pl kb ún', numbered: 'sz old' },
  ro: { titles: 'Dl Dna Dra Dr Prof Sf', numbered: 'nr pag vol cap art' },
  ru: { titles: 'проф акад доц им св ул пр пер см напр', numbered: 'стр гл рис' },
  uk: { titles: 'проф акад доц св вул пров напр див', numbered: 'стор рис' },
  bg: { titles: 'проф акад доц св ул бул напр вж', numbered: 'стр' },
  el: { titles: 'κα Δρ καθ δηλ αγ', numbered: 'σελ αρ' },
  tr: { titles: 'Dr Prof Doç Av Sn Yrd Öğr Gör', numbered: 'no' },
  et: { titles: 'dr prof hr pr nt vt', numbered: 'nr lk' },
  lv: { titles: 'Dr prof piem', numbered: 'nr lpp' },
  lt: { titles: 'dr prof doc gerb pvz', numbered: 'nr psl' },
  is: { titles: 'Dr Prof', numbered: 'nr bls' },
  af: { titles: 'Mnr Mev Mej Dr Prof bv', numbered: 'nr bl' },
  gl: { titles: 'Sr Sra Dr Dra Prof', numbered: 'páx núm vol cap' },
};

const ALIASES: Record<string, string> = { no: 'nb', nn: 'nb', bs: 'hr', sr: 'hr', sh: 'hr', sk: 'cs', mo: 'ro', be: 'ru' };

/** Titles every language takes (Latin script): "Dr.", "Prof.", "St." end no sentence anywhere. */
const COMMON_TITLES = 'Dr Prof St';

export interface Abbreviations {
  titles: ReadonlySet<string>;
  numbered: ReadonlySet<string>;
  /** Words an ordinal number follows ("am 3."). */
  ordinalAfter: ReadonlySet<string>;
  /** Words an ordinal number stands before ("3. Mai"). */
  ordinalBefore: ReadonlySet<string>;
}

const words = (list: string | undefined) => (list ? list.split(' ') : []);
const compiled = new Map<string, Abbreviations>();

/** The abbreviations of a language tag ("de-AT" reads German's), the common titles for any other. */
export function abbreviationsFor(language: string): Abbreviations {
  const primary = language.toLowerCase().split(/[-_]/)[0] ?? '';
  const key = ALIASES[primary] ?? primary;
  let found = compiled.get(key);
  if (!found) {
    const own = BY_LANGUAGE[key];
    found = {
      titles: new Set([...words(COMMON_TITLES), ...words(own?.titles)]),
      numbered: new Set(words(own?.numbered)),
      ordinalAfter: new Set(words(own?.ordinals?.after)),
      ordinalBefore: new Set(words(own?.ordinals?.before)),
    };
    compiled.set(key, found);
  }
  return found;
}
