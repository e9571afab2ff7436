import { useEffect, useState, type FormEvent } from 'react';
import type { LexiconEntryInput, LexiconFormat } from '../api/contract';
import { saveBlob } from '../lib/download';
import { useApp } from '../store';
import { effectiveVoiceId } from '../store/editor-slice';
import { findVoice } from '../store/engines-slice';
import { VoicePicker } from './VoicePicker';

const BLANK = { grapheme: '', alias: '', phoneme: '', thisVoiceOnly: false, caseSensitive: false, wholeWord: true };

/**
 * The pronunciation lexicon (store/lexicon-slice.ts): entries of words and names with what to say
 * instead, each heard through /preview (which applies the lexicon like every route) with the voice
 * chosen under "Hear it with": the studio's voice, or a project's when the lexicon was opened from
 * that project, so a narrator hears a name as the book will say it.
 */
export function LexiconPanel() {
  const client = useApp((s) => s.client);
  const context = useApp((s) => s.lexiconContext);
  const studioVoice = useApp(effectiveVoiceId);
  // none chosen yet: the project's voice, else the studio's (which may arrive after the panel)
  const [chosen, setVoiceId] = useState<string | null>(context?.voice ?? null);
  const voiceId = chosen ?? studioVoice;
  const voiceLanguage = useApp((s) => findVoice(s, voiceId)?.language ?? 'en');
  const entries = useApp((s) => s.lexicon);
  const error = useApp((s) => s.lexiconError);
  const notice = useApp((s) => s.lexiconNotice);
  const hearing = useApp((s) => s.hearingEntry);
  const { loadLexicon, addLexiconEntry, deleteLexiconEntry, importLexicon, exportLexicon, hearLexiconEntry } = useApp.getState();
  const [form, setForm] = useState(BLANK);
  const [language, setLanguage] = useState(voiceLanguage.split('-')[0]!);

  // read again for each client: a new key may see another gateway's lexicon
  useEffect(() => {
    if (client) void loadLexicon();
  }, [client, loadLexicon]);

  if (!client) return null;

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
    if (await addLexiconEntry(entry)) setForm(BLANK);
  };

  const exportAs = async (format: LexiconFormat) => {
    const blob = await exportLexicon(format, language);
    if (blob) saveBlob(blob, `orator-lexicon${format === 'pls' ? `-${language}` : ''}.${format}`);
  };

  const set = (field: keyof typeof BLANK) => (value: string | boolean) => setForm((f) => ({ ...f, [field]: value }));

  return (
    <div className="lexicon">
      <h2>Pronunciation lexicon</h2>
      <p className="hint">
        Words and names said your way in every text: inline, previews, jobs and projects. What people read (read-along, captions, chapter
        titles) stays as written.
      </p>
      <div className="lexicon-voice">
        <label htmlFor="lexicon-voice">Hear it with</label>
        <VoicePicker id="lexicon-voice" value={voiceId} onChange={setVoiceId} label="Hear it with" />
        {context && voiceId === context.voice && <span className="hint">the voice of the project “{context.project}”</span>}
      </div>
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
          <input value={language} onChange={(e) => setLanguage(e.target.value)} required size={6} />
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
      <div className="lexicon-files">
        <label className="file-button">
          Import PLS or CSV…
          <input
            type="file"
            accept=".pls,.xml,.csv"
            className="visually-hidden"
            onChange={(e) => {
              const file = e.target.files?.[0];
              if (file) void importLexicon(file, language);
              e.target.value = '';
            }}
          />
        </label>
        <button type="button" className="secondary small" onClick={() => void exportAs('pls')}>
          Export PLS ({language})
        </button>
        <button type="button" className="secondary small" onClick={() => void exportAs('csv')}>
          Export CSV
        </button>
      </div>
      {error ? (
        <p role="alert" className="error">
          {error}
        </p>
      ) : (
        notice && (
          <p role="status" className="hint">
            {notice}
          </p>
        )
      )}
      <table className="lexicon-table">
        <thead>
          <tr>
            <th scope="col">Word or phrase</th>
            <th scope="col">Said as</th>
            <th scope="col">Language</th>
            <th scope="col">Voice</th>
            <th scope="col">
              <span className="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => (
            <tr key={entry.id}>
              <td>
                {entry.grapheme}
                {entry.case_sensitive && <span className="tag">case</span>}
                {!entry.whole_word && <span className="tag">in words</span>}
              </td>
              <td>
                {entry.alias}
                {entry.phoneme && <code> [[{entry.phoneme}]]</code>}
              </td>
              <td>{entry.language}</td>
              <td>{entry.voice ?? 'any'}</td>
              <td className="lexicon-actions">
                <button
                  type="button"
                  className="small primary"
                  onClick={() => void hearLexiconEntry(entry, voiceId)}
                  disabled={hearing !== null}
                >
                  {hearing === entry.id ? 'Loading…' : 'Hear it'}
                </button>
                <button
                  type="button"
                  className="small secondary danger"
                  onClick={() => void deleteLexiconEntry(entry.id)}
                  aria-label={`Delete ${entry.grapheme}`}
                >
                  Delete
                </button>
              </td>
            </tr>
          ))}
          {entries.length === 0 && (
            <tr>
              <td colSpan={5} className="hint">
                No entries yet.
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
