import { useState, type FormEvent } from 'react';
import { selectIsWebHost, useApp } from '../../stores/app.js';
import { useArchives } from '../../stores/archives.js';
import { commandValue } from '../../stores/command.js';
import { useToasts } from '../../stores/toasts.js';

/**
 * "Open archive…": adds an archive folder already on disk (one kept when its job was deleted, or
 * made by `harvest crawl`) to the library. The desktop app asks with the folder dialog; the web host
 * has none, so the path is typed.
 */
export function OpenArchive({ onOpened }: { onOpened?: () => void }) {
  const isWeb = useApp(selectIsWebHost);
  const [typing, setTyping] = useState(false);
  const [dir, setDir] = useState('');

  const open = async (archiveDir: string): Promise<void> => {
    const job = await useArchives.getState().open(archiveDir);
    if (!job) return;
    useToasts.getState().push('info', `Added “${job.job.name}” to the library`);
    onOpened?.();
    setTyping(false);
    setDir('');
  };

  const choose = async (): Promise<void> => {
    if (isWeb) return setTyping(true);
    const picked = await commandValue('dialog.chooseFolder', { title: 'Open an archive folder' });
    if (picked?.path) await open(picked.path);
  };

  const submit = (e: FormEvent): void => {
    e.preventDefault();
    if (dir.trim()) void open(dir.trim());
  };

  if (!typing) {
    return (
      <button onClick={() => void choose()} data-testid="library-open">
        Open archive…
      </button>
    );
  }
  return (
    <form className="row open-archive" onSubmit={submit} data-testid="library-open-form">
      <label>
        Archive folder{' '}
        <input autoFocus value={dir} onChange={(e) => setDir(e.target.value)} placeholder="/path/to/archive" size={48} data-testid="library-open-path" />
      </label>
      <button className="primary" type="submit" disabled={!dir.trim()} data-testid="library-open-add">
        Add to library
      </button>
      <button type="button" onClick={() => setTyping(false)}>
        Cancel
      </button>
    </form>
  );
}
