import type { Voice } from '../api/contract';
import { languageName } from '../lib/languages';
import { useApp } from '../store';
import { engineIdOf, engineName } from '../store/engines-slice';

export function VoiceRow({ voice }: { voice: Voice }) {
  const favourite = useApp((s) => s.favourites.includes(voice.id));
  const previewing = useApp((s) => s.previewingVoice === voice.id);
  const previewError = useApp((s) => (s.previewError?.voice === voice.id ? s.previewError.message : null));
  const inUse = useApp((s) => s.voiceId === voice.id);
  const engine = useApp((s) => engineName(s, engineIdOf(voice.id)));
  const language = languageName(voice.language);
  // Engines share voice names; the engine makes a label unique.
  const label = `${voice.name} · ${engine}`;
  const { toggleFavourite, previewVoice, setVoice, setTab } = useApp.getState();

  return (
    <tr data-voice-id={voice.id}>
      <td>
        <button
          type="button"
          className={`star${favourite ? ' on' : ''}`}
          aria-pressed={favourite}
          aria-label={`Favourite ${label}`}
          onClick={() => toggleFavourite(voice.id)}
        >
          {favourite ? '★' : '☆'}
        </button>
      </td>
      <td>
        <div className="voice-name" title={voice.name}>
          {voice.name}
        </div>
        <div className="muted small voice-id" title={voice.id}>
          <span className="voice-engine">{engine}</span> · <span className="mono">{voice.id}</span> ·{' '}
          {(voice.sampleRate / 1000).toFixed(voice.sampleRate % 1000 ? 2 : 0)} kHz
        </div>
        {previewError && (
          <div className="error small" role="alert">
            {previewError}
          </div>
        )}
      </td>
      <td className="voice-language">
        {language}
        {language !== voice.language && <span className="muted small mono"> {voice.language}</span>}
      </td>
      <td className="muted">{voice.gender ?? '—'}</td>
      <td>
        {voice.quality ? <span className={`quality quality-${voice.quality}`}>{voice.quality}</span> : <span className="muted">—</span>}
      </td>
      <td className="row-actions">
        <button
          type="button"
          className="small secondary"
          onClick={() => void previewVoice(voice.id)}
          disabled={previewing}
          aria-label={`Preview ${label}`}
        >
          {previewing ? 'Loading…' : 'Preview'}
        </button>
        <button
          type="button"
          className="small ghost"
          onClick={() => {
            setVoice(voice.id);
            setTab('studio');
          }}
          aria-label={`Use ${label}`}
          disabled={inUse}
        >
          {inUse ? 'In use' : 'Use'}
        </button>
      </td>
    </tr>
  );
}
