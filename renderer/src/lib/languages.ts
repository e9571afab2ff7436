/**
 * Language names for BCP 47 tags, in the reader's language. Every tag goes through the same
 * steps, so a language is named the same way everywhere; a tag Intl cannot name stays a code
 * (browsers ship language names for only part of the ~600 tags the engines use).
 */
let names: Intl.DisplayNames | null | undefined;

function displayNames(): Intl.DisplayNames | null {
  if (names === undefined) {
    try {
      names = new Intl.DisplayNames(undefined, { type: 'language', fallback: 'none' });
    } catch {
      names = null;
    }
  }
  return names;
}

function lookup(tag: string): string | undefined {
  try {
    return displayNames()?.of(tag) ?? undefined;
  } catch {
    return undefined; // not a tag Intl accepts, e.g. one with a private-use part
  }
}

/**
 * The parts of a tag that name a language: language, script, region. Variants ("scotland") and
 * private-use parts ("x-nyc") come out in upper case or throw in DisplayNames; the tag shown
 * beside the name keeps them.
 */
export function coreTag(tag: string): string {
  const [language = '', ...rest] = tag.split(/[-_]/);
  const core = [language.toLowerCase()];
  for (const part of rest) {
    if (part.length === 1) break; // a singleton starts extensions or private use
    if (/^[a-z]{4}$/i.test(part) && core.length === 1) core.push(part[0]!.toUpperCase() + part.slice(1).toLowerCase());
    else if (/^([a-z]{2}|[0-9]{3})$/i.test(part) && !core.some((p) => /^([A-Z]{2}|[0-9]{3})$/.test(p))) core.push(part.toUpperCase());
  }
  return core.join('-');
}

/** "American English" for en-US, "British English" for en-GB-scotland; the tag itself where Intl has no name. */
export function languageName(tag: string): string {
  const core = coreTag(tag);
  const primary = core.split('-')[0]!;
  return lookup(core) ?? (core !== primary ? lookup(primary) : undefined) ?? tag;
}
