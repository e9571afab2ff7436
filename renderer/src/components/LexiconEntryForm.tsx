import { useState, type FormEvent } from 'react';
import type { LexiconEntryInput } from '../api/contract';
import { useApp } from '../store';

const BLANK = { grapheme: '', alias: '', phoneme: '', thisVoiceOnly: false, caseSensitive: false, wholeWord: true };

interface Props {
  /** The voice an entry marked "This voice only" is for: the panel's "Hear it with". */
  voiceId: string;
  /** The language field is the panel's: its import and PLS export use it too. */
  language: string;
  onLanguage(language: string): void;
}

/** A new lexicon entry: a word or phrase, what to say instead (a spelling or eSpeak phonemes), and where it applies. */
export function LexiconEntryForm({ voiceId, language, onLanguage }: Props) {
  const [form, setForm] = useState(BLANK);

  const add = async (event: FormEvent) => {
    event.preventDefault();
    const entry: LexiconEntryInput = {
      grapheme: form.grapheme.trim(),
      language,
      case_sensitive: form.caseSensitive,
      whole_word: form.wholeWord,
      ...(form.alias.trim() ? { alias: form.alias.trim() } : {}),
      ...(form.phoneme.trim() ? { phoneme: form.phoneme.trim(), alphabet: 'x-espeak' as const } : {}),
      ...(form.thisVoiceOnly ? { voice: voiceId } : {}),
    };
    if (await useApp.getState().addLexiconEntry(entry)) setForm(BLANK);
  };

  const set = (field: keyof typeof BLANK) => (value: string | boolean) => setForm((f) => ({ ...f, [field]: value }));

  return (
    <form className="lexicon-form" onSubmit={(e) => void add(e)} aria-label="New lexicon entry">
      <label>
        Word or phrase
        <input value={form.grapheme} onChange={(e) => set('grapheme')(e.target.value)} required maxLength={100} />
      </label>
      <label>
        Say it as
        <input value={form.alias} onChange={(e) => set('alias')(e.target.value)} maxLength={300} placeholder="Shivawn" />
      </label>
      <label>
        eSpeak phonemes
        <input value={form.phoneme} onChange={(e) => set('phoneme')(e.target.value)} maxLength={300} placeholder="S@v'O:n" />
      </label>
      <label>
        Language
        <input value={language} onChange={(e) => onLanguage(e.target.value)} required size={6} />
      </label>
      <label className="check">
        <input type="checkbox" checked={form.thisVoiceOnly} onChange={(e) => set('thisVoiceOnly')(e.target.checked)} />
        This voice only
      </label>
      <label className="check">
        <input type="checkbox" checked={form.caseSensitive} onChange={(e) => set('caseSensitive')(e.target.checked)} />
        Match case
      </label>
      <label className="check">
        <input type="checkbox" checked={form.wholeWord} onChange={(e) => set('wholeWord')(e.target.checked)} />
        Whole words
      </label>
      <button type="submit" className="primary" disabled={!form.grapheme.trim() || (!form.alias.trim() && !form.phoneme.trim())}>
        Add
      </button>
    </form>
  );
}
