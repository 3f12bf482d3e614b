import { useEffect, useState } from 'react';
import { Confirm } from './features/Confirm/index.js';
import { Jobs } from './features/Jobs/index.js';
import { Library } from './features/Library/index.js';
import { Report } from './features/Report/index.js';
import { Search } from './features/Search/index.js';
import { Settings } from './features/Settings/index.js';
import { ShortcutsHelp } from './features/ShortcutsHelp/index.js';
import { Toasts } from './features/Toasts/index.js';
import { Viewer } from './features/Viewer/index.js';
import { useShortcuts } from './lib/shortcuts.js';
import { useApp } from './stores/app.js';
import { selectJobIds, selectRunningCount, useJobs } from './stores/jobs.js';
import { useNav, type Screen } from './stores/nav.js';

const TABS: { screen: Screen; label: string; keys: string }[] = [
  { screen: 'jobs', label: 'Jobs', keys: 'g j' },
  { screen: 'library', label: 'Library', keys: 'g l' },
  { screen: 'viewer', label: 'Viewer', keys: 'g v' },
  { screen: 'search', label: 'Search', keys: 'g s' },
  { screen: 'report', label: 'Report', keys: 'g r' },
];

const currentJobIds = (): string[] => selectJobIds(useJobs.getState());

export function App() {
  const dark = useApp((s) => s.dark);
  const screen = useNav((s) => s.screen);
  const go = useNav((s) => s.go);
  const running = useJobs(selectRunningCount);
  const pendingLeave = useNav((s) => s.pendingLeave);
  const [settingsOpen, setSettingsOpen] = useState(false);
  useShortcuts(currentJobIds);
  useEffect(() => {
    document.documentElement.dataset.theme = dark ? 'dark' : 'light';
  }, [dark]);
  const title = TABS.find((t) => t.screen === screen)?.label ?? 'Harvest';
  return (
    <div className="app">
      {/* The first Tab stop: past the screen tabs to the screen itself (WCAG 2.4.1). */}
      <a
        className="skip-link"
        href="#main"
        onClick={(e) => {
          e.preventDefault();
          document.getElementById('main')?.focus();
        }}
        data-testid="skip-link"
      >
        Skip to content
      </a>
      <nav className="topbar" aria-label="Screens">
        <span className="brand">Harvest</span>
        {TABS.map((t) => (
          <button
            key={t.screen}
            className={`tab${screen === t.screen ? ' active' : ''}`}
            aria-current={screen === t.screen ? 'page' : undefined}
            onClick={() => go(t.screen)}
            title={`${t.label} (${t.keys})`}
            data-testid={`nav-${t.screen}`}
          >
            {t.label}
          </button>
        ))}
        <span className="spacer" />
        {running > 0 && (
          <span className="muted small" data-testid="running-count">
            {running} running
          </span>
        )}
        <button className="tab" onClick={() => setSettingsOpen(true)} title="Settings: the institution's contact" data-testid="nav-settings">
          Settings
        </button>
        <button className="tab" onClick={() => useNav.getState().setHelp(true)} title="Keyboard shortcuts (?)" aria-label="Keyboard shortcuts and about" data-testid="nav-help">
          ?
        </button>
      </nav>
      <main className="screen" id="main" tabIndex={-1} aria-labelledby="screen-title">
        {/* Each screen's name, for the outline a screen reader lists; the tabs show it to the eye. */}
        <h1 id="screen-title" className="sr-only">
          {title}
        </h1>
        {screen === 'jobs' && <Jobs />}
        {screen === 'library' && <Library />}
        {screen === 'viewer' && <Viewer />}
        {screen === 'search' && <Search />}
        {screen === 'report' && <Report />}
      </main>
      {pendingLeave && (
        <Confirm
          title="Discard the changes to this job?"
          confirmLabel="Discard changes"
          cancelLabel="Keep editing"
          onConfirm={() => useNav.getState().confirmLeave()}
          onCancel={() => useNav.getState().stayHere()}
          testId="leave-confirm"
        >
          <p>The job form has edits that are not saved yet.</p>
        </Confirm>
      )}
      <ShortcutsHelp />
      {settingsOpen && <Settings onClose={() => setSettingsOpen(false)} />}
      <Toasts />
    </div>
  );
}
