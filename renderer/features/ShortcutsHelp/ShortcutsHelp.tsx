import { useState } from 'react';
import { api } from '../../api/index.js';
import { measureRoundTrip, type RoundTrip } from '../../lib/roundTrip.js';
import { SHORTCUTS } from '../../lib/shortcuts.js';
import { useApp } from '../../stores/app.js';
import { useNav } from '../../stores/nav.js';

const PING_SAMPLES = 200;

/** The "?" overlay: keyboard shortcuts, and about the app (with a response-time check of the host). */
export function ShortcutsHelp() {
  const open = useNav((s) => s.helpOpen);
  const info = useApp((s) => s.info);
  const [trip, setTrip] = useState<RoundTrip | 'measuring' | string | null>(null);
  if (!open) return null;
  const measure = async (): Promise<void> => {
    setTrip('measuring');
    try {
      setTrip(await measureRoundTrip(api(), PING_SAMPLES));
    } catch (err) {
      setTrip(String(err));
    }
  };
  return (
    <div className="modal-backdrop" onClick={() => useNav.getState().setHelp(false)}>
      <div className="modal" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" onClick={(e) => e.stopPropagation()} data-testid="shortcuts-help">
        <h2>Keyboard shortcuts</h2>
        <table className="shortcuts">
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.keys}>
                <td>
                  <kbd>{s.keys}</kbd>
                </td>
                <td>{s.action}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <h2>About</h2>
        <p className="small">
          Harvest {info?.version ?? ''} · data folder <code>{info?.dataDir ?? '…'}</code>
        </p>
        <p className="small row">
          <button onClick={() => void measure()} disabled={trip === 'measuring'} data-testid="ping-measure">
            Measure response time
          </button>
          <span data-testid="ping-result">
            {trip === 'measuring'
              ? 'measuring…'
              : typeof trip === 'string'
                ? trip
                : trip && `${trip.samples} round trips: p50 ${trip.p50Ms.toFixed(1)} ms, p99 ${trip.p99Ms.toFixed(1)} ms`}
          </span>
        </p>
      </div>
    </div>
  );
}
