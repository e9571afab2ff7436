import { useState, type FormEvent } from 'react';
import { API, SENTENCE_MAX_CHARS, type SentenceTiming } from '../api/contract';
import { describeError } from '../lib/format';
import { useApp } from '../store';

/** `at`: where the sentence starts in the audio, where the player goes on once it is re-rendered. */
type State = { mode: 'closed' } | { mode: 'editing' | 'saving'; index: number; text: string; at: number };

/**
 * Edit one sentence of a finished job: the gateway synthesizes only its chunk again and splices it
 * in (PUT /jobs/{id}/sentences/{n}); the player then reloads the job and plays on from the
 * sentence, not from 0:00. Edits the sentence that is highlighted (the one playing, or the one last
 * clicked). A project's chapter keeps the edit (docs/projects.md).
 */
export function SentenceEditor({ jobId, current, sentence }: { jobId: string; current: number; sentence: SentenceTiming | undefined }) {
  const client = useApp((s) => s.client);
  const [state, setState] = useState<State>({ mode: 'closed' });
  const [error, setError] = useState<string | null>(null);

  if (state.mode === 'closed') {
    return (
      <div className="sentence-editor">
        <button
          type="button"
          className="secondary small"
          disabled={!sentence}
          onClick={() => sentence && setState({ mode: 'editing', index: current, text: sentence.text, at: sentence.start_s })}
        >
          Edit sentence
        </button>
        {error && (
          <span className="error small" role="alert">
            {error}
          </span>
        )}
      </div>
    );
  }

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!client) return;
    setState({ ...state, mode: 'saving' });
    try {
      const job = await client.call(API.editJobSentence, { params: { id: jobId, n: String(state.index) }, body: { text: state.text } });
      setError(null);
      setState({ mode: 'closed' });
      useApp.getState().upsertJob(job);
      useApp.getState().playJob(job, state.at);
    } catch (failure) {
      setError(describeError(failure));
      setState({ ...state, mode: 'editing' });
    }
  };
  const saving = state.mode === 'saving';
  return (
    <form className="sentence-editor" onSubmit={(e) => void save(e)} aria-label={`Edit sentence ${state.index + 1}`}>
      <input
        type="text"
        value={state.text}
        maxLength={SENTENCE_MAX_CHARS}
        autoFocus
        disabled={saving}
        aria-label={`New text of sentence ${state.index + 1}`}
        onChange={(e) => setState({ ...state, text: e.target.value })}
        onKeyDown={(e) => e.key === 'Escape' && setState({ mode: 'closed' })}
      />
      <button type="submit" className="primary small" disabled={saving || !state.text.trim()}>
        {saving ? 'Rendering…' : 'Re-render'}
      </button>
      <button type="button" className="ghost small" disabled={saving} onClick={() => setState({ mode: 'closed' })}>
        Cancel
      </button>
      {error && (
        <span className="error small" role="alert">
          {error}
        </span>
      )}
    </form>
  );
}
