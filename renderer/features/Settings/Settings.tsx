import { useEffect, useRef, useState, type FormEvent } from 'react';
import { AppSettingsSchema } from '../../../shared/job.js';
import { useApp } from '../../stores/app.js';
import { useDialog } from '../../lib/dialog.js';
import { command, commandValue } from '../../stores/command.js';

interface Props {
  onClose(): void;
}

/**
 * The app's settings, set once: the institution's contact, which every new job sends to the sites
 * it harvests (in the User-Agent, and as From when it is an e-mail address).
 */
export function Settings({ onClose }: Props) {
  const [contact, setContact] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [loaded, setLoaded] = useState(false);
  const input = useRef<HTMLInputElement>(null);
  const dialog = useDialog<HTMLDivElement>(onClose);

  useEffect(() => {
    void commandValue('settings.get', {}).then((s) => {
      setContact(s?.contact ?? '');
      setLoaded(true);
    });
  }, []);
  // The field is disabled until the settings arrive, and a disabled field cannot take the focus.
  useEffect(() => {
    if (loaded) input.current?.focus();
  }, [loaded]);

  const save = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const parsed = AppSettingsSchema.safeParse({ contact: contact.trim() === '' ? null : contact.trim() });
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'invalid');
      return;
    }
    const reply = await command('settings.set', { settings: parsed.data });
    if (!reply.ok) return;
    // New jobs take the contact from the defaults app.info gives the job form.
    await useApp.getState().load();
    onClose();
  };

  return (
    <div className="modal-backdrop">
      <div ref={dialog} className="modal" role="dialog" aria-modal="true" aria-labelledby="settings-title" tabIndex={-1}>
        <form onSubmit={(e) => void save(e)} noValidate data-testid="settings">
          <h2 id="settings-title">Settings</h2>
          <div className={`field${problem ? ' invalid' : ''}`}>
            <label htmlFor="settings-contact">Institution contact</label>
            <input
              id="settings-contact"
              ref={input}
              value={contact}
              disabled={!loaded}
              placeholder="https://library.example.edu/web-archiving or archive@library.example.edu"
              aria-invalid={problem ? true : undefined}
              aria-describedby={problem ? 'settings-contact-hint settings-contact-issues' : 'settings-contact-hint'}
              onChange={(e) => {
                setContact(e.target.value);
                setProblem(null);
              }}
              data-testid="settings-contact"
            />
            <small className="hint" id="settings-contact-hint">
              How site owners reach you: a web page or an e-mail address. New jobs send it in the User-Agent; empty sends none.
            </small>
            {problem && (
              <ul className="field-issues" id="settings-contact-issues" data-testid="settings-contact-issues">
                <li>{problem}</li>
              </ul>
            )}
          </div>
          <div className="modal-actions">
            <button type="button" onClick={onClose} data-testid="settings-cancel">
              Cancel
            </button>
            <button type="submit" className="primary" disabled={!loaded} data-testid="settings-save">
              Save
            </button>
          </div>
        </form>
      </div>
    </div>
  );
}
