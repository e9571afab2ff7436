import { useEffect, useState } from 'react';
import { useApp } from '../store';
import { effectiveVoiceId } from '../store/editor-slice';
import { findVoice } from '../store/engines-slice';
import { LexiconEntryForm } from './LexiconEntryForm';
import { LexiconFiles } from './LexiconFiles';
import { LexiconTable } from './LexiconTable';
import { VoicePicker } from './VoicePicker';

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
  const error = useApp((s) => s.lexiconError);
  const notice = useApp((s) => s.lexiconNotice);
  const loadLexicon = useApp((s) => s.loadLexicon);
  const [language, setLanguage] = useState(voiceLanguage.split('-')[0]!);

  // read again for each client: a new key may see another gateway's lexicon
  useEffect(() => {
    if (client) void loadLexicon();
  }, [client, loadLexicon]);

  if (!client) return null;

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
      <LexiconEntryForm voiceId={voiceId} language={language} onLanguage={setLanguage} />
      <LexiconFiles language={language} />
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
      <LexiconTable voiceId={voiceId} />
    </div>
  );
}
