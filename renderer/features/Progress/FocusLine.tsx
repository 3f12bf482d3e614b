import type { FocusCounts } from '../../../shared/crawl.js';
import { formatCount } from '../../lib/format.js';

/** A focused harvest's verdicts so far, the same line for a local job's progress and an attached cluster harvest. */
export function FocusLine({ focus, testId }: { focus: FocusCounts; testId: string }) {
  return (
    <p className="harvest-rate" data-testid={testId}>
      Focused harvest: harvest rate {focus.harvestRate === null ? '—' : `${(focus.harvestRate * 100).toFixed(1)}%`} (
      {formatCount(focus.relevantPages)} relevant, {formatCount(focus.offTopicPages)} off-topic, {formatCount(focus.nearDuplicates)}{' '}
      near-duplicates)
    </p>
  );
}
