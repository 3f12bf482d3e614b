import { useEffect, useState } from 'react';
import type { ScriptsSetting as Setting } from '../../../shared/appViews.js';
import { commandValue } from '../../stores/command.js';

/**
 * The archive's "Allow scripts" setting, where the host makes it a choice (`harvest serve`): a
 * user's browser can't be told to block WebRTC, so an archived page's script could send packets
 * anywhere; its scripts stay off until the archivist turns them on. `onChange` reloads the page.
 */
export function ScriptsSetting({ jobId, onChange }: { jobId: string; onChange: () => void }) {
  const [setting, setSetting] = useState<Setting | null>(null);
  useEffect(() => {
    let live = true;
    void commandValue('archives.scripts', { id: jobId }).then((s) => live && setSetting(s));
    return () => {
      live = false;
    };
  }, [jobId]);
  if (!setting?.switchable) return null;
  const change = async (allowed: boolean): Promise<void> => {
    const s = await commandValue('archives.setScripts', { id: jobId, allowed });
    if (!s) return;
    setSetting(s);
    onChange();
  };
  return (
    <p className="scripts-banner small" data-testid="viewer-scripts" data-allowed={String(setting.allowed)}>
      {setting.allowed ? (
        <>
          This archive&apos;s pages run their own scripts. In a browser nothing stops a script from sending data out over WebRTC; turn them off
          unless you trust the site.{' '}
        </>
      ) : (
        <>
          Scripts are off for this archive: pages show as saved, without what their scripts would add. In a browser nothing stops a script from
          sending data out over WebRTC, so allow them only for a site you trust.{' '}
        </>
      )}
      <button className="link" onClick={() => void change(!setting.allowed)} data-testid="viewer-scripts-toggle">
        {setting.allowed ? 'Turn scripts off' : 'Allow scripts'}
      </button>
    </p>
  );
}
