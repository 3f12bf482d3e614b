import { useEffect } from 'react';
import { runActionsFor, useJobs } from '../stores/jobs.js';
import { useNav } from '../stores/nav.js';

/** Every shortcut, for the help overlay. */
export const SHORTCUTS: { keys: string; action: string }[] = [
  { keys: 'n', action: 'New job' },
  { keys: 's', action: 'Start, pause or resume the selected job' },
  { keys: '/', action: 'Search (URL log or page list)' },
  { keys: 'j / k', action: 'Select the next / previous job' },
  { keys: 'g j', action: 'Go to Jobs' },
  { keys: 'g l', action: 'Go to Library' },
  { keys: 'g v', action: 'Go to Viewer' },
  { keys: 'g s', action: 'Go to Search (full text of the archives)' },
  { keys: 'g r', action: "Go to Report (an archive's QA report)" },
  { keys: '?', action: 'Show or hide this help' },
  { keys: 'Esc', action: 'Close a dialog or this help' },
];

const GO_TIMEOUT_MS = 1500;

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName);
}

function toggleSelectedRun(): void {
  const { selectedId, byId, start, pause, resume } = useJobs.getState();
  const job = selectedId ? byId[selectedId] : undefined;
  if (!job) return;
  const can = runActionsFor(job.status);
  if (can.start) void start(job.id);
  else if (can.pause) void pause(job.id);
  else if (can.resume) void resume(job.id);
}

function selectNeighbour(step: 1 | -1, ids: string[]): void {
  const { selectedId, select } = useJobs.getState();
  if (ids.length === 0) return;
  const at = selectedId ? ids.indexOf(selectedId) : -1;
  const next = ids[Math.min(ids.length - 1, Math.max(0, at + step))];
  if (next) select(next);
}

/** Handles one key press; returns true when it was a shortcut. `pendingG` is the "g" prefix state. */
export function handleShortcut(e: KeyboardEvent, pendingG: { at: number }, jobIds: () => string[], now = Date.now()): boolean {
  if (e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return false;
  const nav = useNav.getState();
  // A dialog (other than this help) owns the keyboard while open.
  if (!nav.helpOpen && document.querySelector('[aria-modal="true"]')) return false;
  if (now - pendingG.at < GO_TIMEOUT_MS) {
    pendingG.at = 0;
    const screen = ({ j: 'jobs', l: 'library', v: 'viewer', s: 'search', r: 'report' } as const)[e.key as 'j' | 'l' | 'v' | 's' | 'r'];
    if (screen) {
      nav.go(screen);
      return true;
    }
  }
  switch (e.key) {
    case 'g':
      pendingG.at = now;
      return true;
    case 'n':
      nav.openJobForm({ kind: 'create' });
      return true;
    case 's':
      toggleSelectedRun();
      return true;
    case 'j':
    case 'k':
      if (nav.screen !== 'jobs') return false;
      selectNeighbour(e.key === 'j' ? 1 : -1, jobIds());
      return true;
    case '/': {
      const search = document.querySelector<HTMLInputElement>('[data-shortcut="search"]');
      if (!search) return false;
      search.focus();
      return true;
    }
    case '?':
      nav.setHelp(!nav.helpOpen);
      return true;
    case 'Escape':
      if (!nav.helpOpen) return false;
      nav.setHelp(false);
      return true;
    default:
      return false;
  }
}

/** Installs the app's keyboard shortcuts on the document. */
export function useShortcuts(jobIds: () => string[]): void {
  useEffect(() => {
    const pendingG = { at: 0 };
    const onKey = (e: KeyboardEvent): void => {
      if (handleShortcut(e, pendingG, jobIds)) e.preventDefault();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [jobIds]);
}
