import { useState } from 'react';
import type { Job, LiveControl as Control } from '../../../shared/job.js';
import { controlEffect, rateLimitSentence } from '../../../shared/politenessText.js';

type Politeness = Job['politeness'];

/**
 * Politeness of a running crawl, changeable without pausing it: requests at once per host and the
 * gap between them. The crawl (a local job's, or a cluster harvest's workers) takes the change
 * within a second and keeps it with the job. `apply` sends it and answers whether the host took it.
 */
export function LiveControl({ politeness, apply: send }: { politeness: Politeness; apply: (control: Control) => Promise<boolean> }) {
  const [connections, setConnections] = useState(String(politeness.perHostConnections));
  const [adaptive, setAdaptive] = useState(politeness.delayMs === null);
  const [delayMs, setDelayMs] = useState(String(politeness.delayMs ?? 1000));
  // The politeness a change was sent from, so the reply can say what the change did.
  const [sentFrom, setSentFrom] = useState<Politeness | null>(null);
  const sent = sentFrom !== null;
  const n = Number(connections);
  const d = Number(delayMs);
  const valid = Number.isInteger(n) && n >= 1 && n <= 64 && (adaptive || (Number.isInteger(d) && d >= 0));
  const wanted = { perHostConnections: n, delayMs: adaptive ? null : d };
  const changed = wanted.perHostConnections !== politeness.perHostConnections || wanted.delayMs !== politeness.delayMs;
  const apply = async (): Promise<void> => {
    const from = politeness;
    setSentFrom(null);
    if (await send(wanted)) setSentFrom(from);
  };
  return (
    <form
      className="live-control"
      aria-label="Politeness while running"
      data-testid="live-control"
      onSubmit={(e) => {
        e.preventDefault();
        if (valid && changed) void apply();
      }}
    >
      <span className="muted" title={rateLimitSentence(politeness)}>
        Now: {describe(politeness)}.
      </span>
      <label>
        Connections per host{' '}
        <input type="number" min={1} max={64} value={connections} onChange={(e) => setConnections(e.target.value)} data-testid="live-connections" />
      </label>
      <label>
        <input type="checkbox" checked={adaptive} onChange={(e) => setAdaptive(e.target.checked)} data-testid="live-adaptive" /> Adaptive delay
      </label>
      {!adaptive && (
        <label>
          Delay{' '}
          <input type="number" min={0} value={delayMs} onChange={(e) => setDelayMs(e.target.value)} data-testid="live-delay" /> ms
        </label>
      )}
      <button type="submit" disabled={!valid || !changed} data-testid="live-apply" title="Applied within a second, without pausing; kept for later runs">
        Apply
      </button>
      {sentFrom && !changed && (
        <span className="muted" role="status" data-testid="live-applied">
          Applied: {controlEffect(sentFrom, politeness)}.
        </span>
      )}
      {sent && changed && <span className="muted">Sent; the crawl takes it within a second…</span>}
    </form>
  );
}

function describe(p: Politeness): string {
  return `${p.perHostConnections} connection${p.perHostConnections === 1 ? '' : 's'} per host, ${p.delayMs === null ? 'adaptive delay' : `${p.delayMs} ms between requests`}`;
}
