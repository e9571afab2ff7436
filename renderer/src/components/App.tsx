import { useEffect } from 'react';
import { startJobSync } from '../store/job-sync';
import { useApp } from '../store';
import { ComparePanel } from './ComparePanel';
import { Editor } from './Editor';
import { JobList } from './JobList';
import { KeyPrompt } from './KeyPrompt';
import { LexiconPanel } from './LexiconPanel';
import { PlayerDock } from './PlayerDock';
import { ProjectsPanel } from './ProjectsPanel';
import { TopBar } from './TopBar';
import { VoiceBrowser } from './VoiceBrowser';
import { NaturalVoiceHint } from './NaturalVoiceHint';
import { VoiceLibraryPanel } from './VoiceLibraryPanel';
import { useThemeAttribute } from './use-theme';

export function App() {
  const auth = useApp((s) => s.auth);
  const tab = useApp((s) => s.tab);
  const client = useApp((s) => s.client);
  const enginesError = useApp((s) => (s.enginesStatus === 'error' ? s.enginesError : null));
  const loadEngines = useApp((s) => s.loadEngines);
  useThemeAttribute();

  // Job updates flow while the key works; a new client (new key) restarts the stream.
  useEffect(() => {
    if (auth !== 'ok' || !client) return;
    return startJobSync(useApp);
  }, [auth, client]);

  if (auth === 'needed' || auth === 'rejected') return <KeyPrompt />;
  if (auth === 'checking') {
    return (
      <div className="splash" role="status">
        Connecting to the gateway…
      </div>
    );
  }

  return (
    <div className="app">
      <TopBar />
      {enginesError && (
        <div className="banner" role="alert">
          <span>{enginesError}</span>
          <button type="button" className="small secondary" onClick={() => void loadEngines()}>
            Try again
          </button>
        </div>
      )}
      {tab === 'studio' && <NaturalVoiceHint />}
      <main className="content">
        <section id="panel-studio" role="tabpanel" aria-labelledby="tab-studio" hidden={tab !== 'studio'} className="studio">
          <Editor />
          <JobList />
        </section>
        <section id="panel-voices" role="tabpanel" aria-labelledby="tab-voices" hidden={tab !== 'voices'} className="panel-fixed">
          {tab === 'voices' && <VoiceBrowser />}
        </section>
        <section id="panel-library" role="tabpanel" aria-labelledby="tab-library" hidden={tab !== 'library'} className="panel-scroll">
          {tab === 'library' && <VoiceLibraryPanel />}
        </section>
        <section id="panel-compare" role="tabpanel" aria-labelledby="tab-compare" hidden={tab !== 'compare'} className="panel-scroll">
          {tab === 'compare' && <ComparePanel />}
        </section>
        <section id="panel-lexicon" role="tabpanel" aria-labelledby="tab-lexicon" hidden={tab !== 'lexicon'} className="panel-scroll">
          {tab === 'lexicon' && <LexiconPanel />}
        </section>
        <section id="panel-projects" role="tabpanel" aria-labelledby="tab-projects" hidden={tab !== 'projects'} className="panel-scroll">
          {tab === 'projects' && <ProjectsPanel />}
        </section>
      </main>
      <PlayerDock />
    </div>
  );
}
