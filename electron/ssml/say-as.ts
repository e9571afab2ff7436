/**
 * `<say-as>` as words: numbers, ordinals, dates and telephone numbers written out in English;
 * characters spelt one by one in every language. Other languages get what their engine reads
 * well: spelling with spaces between the characters, digits grouped, and numbers, ordinals and
 * dates left as written for the engine's own reading (docs/ssml.md).
 */

const ONES = ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve', 'thirteen'];
const TEENS: Readonly<Record<number, string>> = {
  14: 'fourteen',
  15: 'fifteen',
  16: 'sixteen',
  17: 'seventeen',
  18: 'eighteen',
  19: 'nineteen',
};
const TENS = ['', '', 'twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety'];
const SCALES = ['', 'thousand', 'million', 'billion', 'trillion', 'quadrillion'];
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** Below 1,000. */
function hundreds(n: number): string {
  const words: string[] = [];
  if (n >= 100) words.push(`${ONES[Math.floor(n / 100)]} hundred`);
  const rest = n % 100;
  if (rest > 0 || n === 0) words.push(belowHundred(rest));
  return words.join(' ');
}

function belowHundred(n: number): string {
  if (n < ONES.length) return ONES[n]!;
  if (n < 20) return TEENS[n]!;
  const ones = n % 10;
  return ones ? `${TENS[Math.floor(n / 10)]}-${ONES[ones]}` : TENS[Math.floor(n / 10)]!;
}

/** A whole number of up to 18 digits in English words; longer numbers digit by digit. */
export function cardinalWords(digits: string): string {
  const trimmed = digits.replace(/^0+(?=\d)/, '');
  if (trimmed.length > 18) return [...digits].map((d) => ONES[Number(d)]).join(' ');
  let n = BigInt(trimmed);
  if (n === 0n) return 'zero';
  const groups: string[] = [];
  for (let scale = 0; n > 0n; scale++, n /= 1000n) {
    const group = Number(n % 1000n);
    if (group) groups.unshift(SCALES[scale] ? `${hundreds(group)} ${SCALES[scale]}` : hundreds(group));
  }
  return groups.join(' ');
}

const ORDINAL_ENDINGS: Readonly<Record<string, string>> = {
  one: 'first',
  two: 'second',
  three: 'third',
  five: 'fifth',
  eight: 'eighth',
  nine: 'ninth',
  twelve: 'twelfth',
};

export function ordinalWords(digits: string): string {
  const cardinal = cardinalWords(digits);
  return cardinal.replace(
    /(?<![a-z])[a-z]+$/,
    (last) => ORDINAL_ENDINGS[last] ?? (last.endsWith('y') ? `${last.slice(0, -1)}ieth` : `${last}th`),
  );
}

/** "-1,234.5" → "minus one thousand two hundred thirty-four point five"; null if it is no number. */
function englishNumber(text: string): string | null {
  const match = /^([+-]?)(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d+))?$/.exec(text.replace(/\s/g, ''));
  if (!match) return null;
  const sign = match[1] === '-' ? 'minus ' : '';
  const fraction = match[3] ? ` point ${[...match[3]].map((d) => ONES[Number(d)]).join(' ')}` : '';
  return `${sign}${cardinalWords(match[2]!.replace(/,/g, ''))}${fraction}`;
}

function englishOrdinal(text: string): string | null {
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:st|nd|rd|th)?\.?$/i.exec(text.replace(/\s/g, ''));
  return match ? ordinalWords(match[1]!.replace(/,/g, '')) : null;
}

/** Years as people say them: 1999 "nineteen ninety-nine", 2005 "two thousand five", 2024 "twenty twenty-four". */
function yearWords(year: number): string {
  if (year >= 2000 && year < 2010) return cardinalWords(String(year));
  if (year >= 1100 && year < 10000 && year % 100 !== 0) {
    const tail = year % 100;
    return `${belowHundred(Math.floor(year / 100))} ${tail < 10 ? `oh ${ONES[tail]}` : belowHundred(tail)}`;
  }
  if (year >= 1100 && year < 10000 && year % 1000 !== 0) return `${belowHundred(Math.floor(year / 100))} hundred`;
  return cardinalWords(String(year));
}

/**
 * A date in the order `format` gives (SSML's "mdy", "dmy", "ymd", "md", "dm", "ym", "my", "y",
 * "m", "d"); default: "ymd" when it starts with four digits, else "mdy". Null if it does not fit.
 */
function englishDate(text: string, format: string | undefined): string | null {
  const parts = text.trim().split(/[-/.\s]+/);
  if (!parts.every((p) => /^\d{1,4}$/.test(p))) return null;
  const order = (format ?? (parts[0]!.length === 4 ? 'ymd' : 'mdy')).toLowerCase();
  if (order.length !== parts.length || !/^[dmy]+$/.test(order)) return null;
  const field = (letter: string) => {
    const i = order.indexOf(letter);
    return i < 0 ? undefined : Number(parts[i]);
  };
  const [day, month, year] = [field('d'), field('m'), field('y')];
  if (month !== undefined && (month < 1 || month > 12)) return null;
  if (day !== undefined && (day < 1 || day > 31)) return null;
  const monthName = month === undefined ? undefined : MONTHS[month - 1];
  const dayName = day === undefined ? undefined : `the ${ordinalWords(String(day))}`;
  const yearName = year === undefined ? undefined : yearWords(year);
  const monthDay = [monthName, dayName].filter(Boolean).join(' ');
  return [monthDay, yearName].filter(Boolean).join(', ');
}

/** Each character on its own: letters as capitals (read as their names), digits as words in English. */
function spelt(text: string, english: boolean): string {
  return [...text.replace(/\s+/g, '')]
    .map((char) => (english && /\d/.test(char) ? ONES[Number(char)] : char.toLocaleUpperCase()))
    .join(' ');
}

/** Digit by digit, a short pause (a comma) between the groups the number is written in. */
function telephone(text: string, english: boolean): string {
  const groups = text.split(/[\s\-.()/]+/).filter(Boolean);
  return groups
    .map((group) =>
      [...group].map((char) => (char === '+' && english ? 'plus' : english && /\d/.test(char) ? ONES[Number(char)] : char)).join(' '),
    )
    .join(', ');
}

/**
 * What `<say-as interpret-as>` makes of its content for a voice of `language`; an interpret-as
 * Orator does not know, or content that does not fit it, is spoken as written.
 */
export function sayAs(content: string, interpretAs: string, format: string | undefined, language: string): string {
  const english = /^en\b/i.test(language);
  switch (interpretAs.toLowerCase()) {
    case 'characters':
    case 'spell-out':
      return spelt(content, english);
    case 'telephone':
      return telephone(content, english);
    case 'cardinal':
    case 'number':
      return (english && englishNumber(content)) || content;
    case 'ordinal':
      return (english && englishOrdinal(content)) || content;
    case 'date':
      return (english && englishDate(content, format)) || content;
    default:
      return content;
  }
}
