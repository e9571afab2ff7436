import { SettingsButton } from '../settings/SettingsButton';
import { useApp } from '../store';
import type { Tab, Theme } from '../store/settings-slice';

const TABS: { id: Tab; label: string }[] = [
  { id: 'studio', label: 'Studio' },
  { id: 'voices', label: 'Voices' },
  { id: 'library', label: 'Voice library' },
  { id: 'compare', label: 'Compare' },
  { id: 'lexicon', label: 'Lexicon' },
  { id: 'projects', label: 'Projects' },
];

const SYNC_LABEL = { off: 'Offline', live: 'Live', polling: 'Polling' } as const;

export function TopBar() {
  const tab = useApp((s) => s.tab);
  const setTab = useApp((s) => s.setTab);
  const theme = useApp((s) => s.theme);
  const setTheme = useApp((s) => s.setTheme);
  const sync = useApp((s) => s.jobsSync);

  return (
    <header className="topbar">
      {/* the page's one h1, on every tab: each tab's cards are its h2s */}
      <h1 className="brand">
        <svg aria-hidden="true" viewBox="0 0 24 24" width="22" height="22">
          <path d="M4 10v4M8 7v10M12 4v16M16 8v8M20 11v2" stroke="currentColor" strokeWidth="2.2" strokeLinecap="round" fill="none" />
        </svg>
        <span>Orator</span>
      </h1>
      <nav role="tablist" aria-label="Sections" className="tabs">
        {TABS.map((t) => (
          <button
            key={t.id}
            id={`tab-${t.id}`}
            role="tab"
            aria-selected={tab === t.id}
            aria-controls={`panel-${t.id}`}
            className="tab"
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
      </nav>
      <div className="topbar-end">
        <span className={`sync sync-${sync}`} title="How the job list stays up to date">
          <span className="dot" aria-hidden="true" />
          {SYNC_LABEL[sync]}
        </span>
        <label className="theme-picker">
          <span className="visually-hidden">Theme</span>
          <select value={theme} onChange={(e) => setTheme(e.target.value as Theme)} aria-label="Theme">
            <option value="system">System theme</option>
            <option value="light">Light</option>
            <option value="dark">Dark</option>
          </select>
        </label>
        <SettingsButton />
      </div>
    </header>
  );
}
