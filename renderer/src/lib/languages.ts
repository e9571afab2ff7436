/** Language names for BCP 47 tags, in the reader's language, falling back to the tag itself. */
let names: Intl.DisplayNames | null = null;

export function languageName(tag: string): string {
  try {
    names ??= new Intl.DisplayNames(undefined, { type: 'language' });
    return names.of(tag) ?? tag;
  } catch {
    return tag; // private-use and invented tags (e.g. "qdb") are not valid for DisplayNames
  }
}
