import { useApp } from '../store';
import { allVoices } from '../store/engines-slice';

/** On the Studio tab, while every voice installed is a low-quality one: a way to a natural voice. */
export function NaturalVoiceHint() {
  const status = useApp((s) => s.enginesStatus);
  const onlyLow = useApp((s) => allVoices(s).every((voice) => voice.quality !== 'high'));
  const setTab = useApp((s) => s.setTab);
  if (status !== 'ready' || !onlyLow) return null;
  return (
    <div className="banner natural-hint" role="note">
      <span>Every voice here is robotic or dated synthesis. A natural (neural) voice is one download away, and then works offline.</span>
      <button type="button" className="small" onClick={() => setTab('library')}>
        Get a natural voice
      </button>
    </div>
  );
}
