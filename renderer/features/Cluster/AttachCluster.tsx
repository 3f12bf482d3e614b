import { useState } from 'react';
import { redactDbUrl } from '../../../shared/cluster.js';
import { useClusters } from '../../stores/clusters.js';

/**
 * The attach form: a PostgreSQL URL (`harvest cluster init --db`). The host's refusal (PostgreSQL not
 * answering, no harvest in that database) is shown here, beside the field. The URL may carry a
 * password: the field masks it, shows the URL back without it, and is cleared once attached.
 */
export function AttachCluster({ onDone }: { onDone: () => void }) {
  const [url, setUrl] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (): Promise<void> => {
    setBusy(true);
    setError(null);
    const refused = await useClusters.getState().attach(url.trim());
    setBusy(false);
    if (refused === null) {
      setUrl('');
      onDone();
    } else setError(refused);
  };
  return (
    <form
      className="attach-cluster"
      aria-label="Attach to a cluster harvest"
      data-testid="cluster-attach-form"
      onSubmit={(e) => {
        e.preventDefault();
        if (url.trim() !== '' && !busy) void submit();
      }}
    >
      <label>
        PostgreSQL URL of the cluster harvest
        <input
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder="postgres://user:password@host:5432/database"
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          aria-invalid={error !== null}
          data-testid="cluster-attach-url"
          autoFocus
        />
      </label>
      {url.trim() !== '' && (
        <p className="muted small" data-testid="cluster-attach-preview">
          {redactDbUrl(url.trim())}
        </p>
      )}
      {error !== null && (
        <p className="error-box" role="alert" data-testid="cluster-attach-error">
          {error}
        </p>
      )}
      <div className="row">
        <button type="submit" className="primary" disabled={url.trim() === '' || busy} data-testid="cluster-attach-submit">
          {busy ? 'Attaching…' : 'Attach'}
        </button>
        <button type="button" onClick={onDone}>
          Cancel
        </button>
      </div>
    </form>
  );
}
