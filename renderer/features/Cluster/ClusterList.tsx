import { useShallow } from 'zustand/react/shallow';
import { formatCount } from '../../lib/format.js';
import { clusterPhase, fetchedOf, useClusters } from '../../stores/clusters.js';
import { useNav } from '../../stores/nav.js';
import { ListBox, ListRow } from '../ListRow/index.js';

/** The attached cluster harvests, above the jobs: name, database (no password), phase, URLs fetched. */
export function ClusterList() {
  const ids = useClusters(useShallow((s) => Object.keys(s.byId)));
  const selectedId = useClusters((s) => s.selectedId);
  if (ids.length === 0) return null;
  return (
    <section aria-label="Cluster harvests">
      <h3 className="list-heading">Cluster harvests</h3>
      <ListBox label="Cluster harvests" hasSelection={selectedId !== null && ids.includes(selectedId)}>
        {ids.map((id) => (
          <ClusterRow key={id} id={id} selected={id === selectedId} />
        ))}
      </ListBox>
    </section>
  );
}

function ClusterRow({ id, selected }: { id: string; selected: boolean }) {
  const view = useClusters((s) => s.byId[id]);
  if (!view) return null;
  const phase = clusterPhase(view);
  return (
    <ListRow
      selected={selected}
      onSelect={() => {
        useNav.getState().openJobForm(null);
        useClusters.getState().select(id);
      }}
      testId="cluster-row"
    >
      <div className="job-row-name">{view.status?.name ?? 'cluster harvest'}</div>
      <div className="job-row-seed muted">{view.db}</div>
      <div className="job-row-meta">
        <span className={`status status-${phase}`} data-testid="cluster-row-phase">
          {phase}
        </span>
        {view.status && <span className="muted">{formatCount(fetchedOf(view.status))} fetched</span>}
      </div>
    </ListRow>
  );
}
