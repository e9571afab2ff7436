import { codePoints, COMPARE_LIMITS } from '../api/contract';
import { formatCount } from '../lib/format';
import { useApp } from '../store';
import { splitTexts } from '../lib/compare-texts';
import { voiceLabel } from '../store/engines-slice';
import { VoiceSearch } from './VoiceSearch';

/** What a session speaks: its texts and voices, blind or not; Compare saves them and synthesizes what is missing. */
export function CompareSetup() {
  const text = useApp((s) => s.compareText);
  const chosen = useApp((s) => s.compareVoices);
  const voices = chosen.filter(Boolean);
  const blind = useApp((s) => s.compareBlind);
  const match = useApp((s) => s.compareMatch);
  const busy = useApp((s) => s.compareBusy);
  const session = useApp((s) => s.compareSession);
  const engines = useApp((s) => s.engines);
  const catalogue = useApp((s) => s.voices);
  const labels = voices.map((v) => voiceLabel({ engines, voices: catalogue }, v));
  const { setCompareText, removeCompareVoice, setCompareBlind, setCompareMatch, runCompare } = useApp.getState();
  const texts = splitTexts(text);
  const length = texts.reduce((sum, t) => sum + codePoints(t), 0);
  const running = session?.takes.filter((t) => t.status === 'running').length ?? 0;
  const ready = session?.takes.filter((t) => t.status === 'ready').length ?? 0;
  const tooLong = length > COMPARE_LIMITS.textChars || texts.length > COMPARE_LIMITS.texts;

  const run = () => void runCompare((lost) => window.confirm(`${lost}\n\nReplace those takes?`));

  return (
    <div className="compare-setup">
      <label className="field">
        <span>
          Texts{' '}
          <span className="muted small">
            ({texts.length} {texts.length === 1 ? 'text' : 'texts'}, {formatCount(length)} of {formatCount(COMPARE_LIMITS.textChars)}{' '}
            characters; a line of --- starts another text)
          </span>
        </span>
        <textarea
          className="compare-text"
          value={text}
          onChange={(e) => setCompareText(e.target.value)}
          rows={3}
          aria-label="Texts to compare"
        />
      </label>
      <VoiceSearch />
      <div className="compare-chosen">
        <h3 className="small">
          Voices ({voices.length} of {COMPARE_LIMITS.voices})
        </h3>
        <ul aria-label="Chosen voices">
          {voices.map((voice, i) => (
            <li key={voice} className="chip">
              {labels[i]}
              <button type="button" className="icon ghost" onClick={() => removeCompareVoice(voice)} aria-label={`Remove ${labels[i]}`}>
                ×
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="compare-buttons">
        <label className="check" title="Each take played at one loudness, so no take wins for being louder">
          <input type="checkbox" checked={match} onChange={(e) => setCompareMatch(e.target.checked)} />
          Match loudness
        </label>
        <label className="check" title="Takes shuffled over the session, trimmed to one length, voices hidden until you reveal them">
          <input type="checkbox" checked={blind} onChange={(e) => setCompareBlind(e.target.checked)} />
          Blind
        </label>
        <button type="button" className="primary" onClick={run} disabled={busy || texts.length === 0 || voices.length === 0 || tooLong}>
          {busy ? 'Saving…' : 'Compare'}
        </button>
        {session && (
          <span className="muted small" role="status" data-testid="synthesis-progress">
            {running > 0
              ? `Synthesizing: ${ready} of ${session.takes.length} takes ready`
              : `${ready} of ${session.takes.length} takes ready`}
          </span>
        )}
      </div>
      {tooLong && (
        <p className="error" role="alert">
          A session holds up to {COMPARE_LIMITS.texts} texts of {formatCount(COMPARE_LIMITS.textChars)} characters together; shorten them.
        </p>
      )}
    </div>
  );
}
