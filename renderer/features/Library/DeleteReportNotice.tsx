import type { DeleteReport } from '../../../shared/appViews.js';
import { deletionSummary } from '../../lib/deletion.js';

interface Props {
  name: string;
  report: DeleteReport;
  onDismiss(): void;
}

/** What deleting a job did to its folder: kept, removed, or what of the archivist's was left in it. */
export function DeleteReportNotice({ name, report, onDismiss }: Props) {
  return (
    <div className="notice" role="status" data-testid="delete-report">
      <p data-testid="delete-report-text">{deletionSummary(name, report)}</p>
      <button onClick={onDismiss} data-testid="delete-report-dismiss">
        Dismiss
      </button>
    </div>
  );
}
