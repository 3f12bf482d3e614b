import { SHORTCUTS } from '../../lib/shortcuts.js';
import { useNav } from '../../stores/nav.js';

/** The "?" overlay listing the keyboard shortcuts. */
export function ShortcutsHelp() {
  const open = useNav((s) => s.helpOpen);
  if (!open) return null;
  return (
    <div className="modal-backdrop" onClick={() => useNav.getState().setHelp(false)}>
      <div className="modal" role="dialog" aria-modal="true" aria-label="Keyboard shortcuts" data-testid="shortcuts-help">
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
      </div>
    </div>
  );
}
