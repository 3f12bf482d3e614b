import { useState } from 'react';
import { api } from '../../api/index.js';
import { useDialog } from '../../lib/dialog.js';
import { measureRoundTrip, type RoundTrip } from '../../lib/roundTrip.js';
import { SHORTCUTS } from '../../lib/shortcuts.js';
import { useApp } from '../../stores/app.js';
import { useNav } from '../../stores/nav.js';

const PING_SAMPLES = 200;

/** The "?" overlay: keyboard shortcuts, and about the app (with a response-time check of the host). */
export function ShortcutsHelp() {
  const open = useNav((s) => s.helpOpen);
  return open ? <HelpDialog /> : null;
}

function HelpDialog() {
  const info = useApp((s) => s.info);
  const [trip, setTrip] = useState<RoundTrip | 'measuring' | string | null>(null);
  const dialog = useDialog<HTMLDivElement>(() => useNav.getState().setHelp(false));
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
      <div
        ref={dialog}
        className="modal"
        role="dialog"
        aria-modal="true"
        aria-labelledby="shortcuts-title"
        tabIndex={-1}
        onClick={(e) => e.stopPropagation()}
        data-testid="shortcuts-help"
      >
        <h2 id="shortcuts-title">Keyboard shortcuts</h2>
        <table className="shortcuts">
          <caption className="sr-only">Keys and what they do</caption>
          <tbody>
            {SHORTCUTS.map((s) => (
              <tr key={s.keys}>
                <th scope="row">
                  <kbd>{s.keys}</kbd>
                </th>
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
        <div className="modal-actions">
          <button className="primary" onClick={() => useNav.getState().setHelp(false)} data-autofocus data-testid="help-close">
            Close
          </button>
        </div>
      </div>
    </div>
  );
}
