import { EMPTY_DIGEST } from './digest.js';
import { parseWarcHead } from './fields.js';
import type { OriginalCapture, WarcRepair } from './types.js';
import { WarcFile } from './warcFile.js';

export interface ResumedWarc {
  file: WarcFile;
  /** The id of the file's opening warcinfo record; null when the file does not start with one. */
  warcinfoId: string | null;
  /** Where that record ends. */
  warcinfoEnd: number;
  repair: WarcRepair | null;
}

/**
 * Reopens an unfinished file (cutting a damaged tail) and reads back what later records need: its
 * warcinfo record's id, and each response's payload digest, so payloads it already holds become revisits.
 */
export async function resumeWarc(
  dir: string,
  name: string,
  remember: (digest: string, original: OriginalCapture) => void,
): Promise<ResumedWarc> {
  let warcinfoId: string | null = null;
  let warcinfoEnd = 0;
  let first = true;
  const { file, repair } = await WarcFile.reopen(dir, name, (member) => {
    const head = parseWarcHead(member.head.toString('utf8'));
    if (first) {
      first = false;
      if (head?.get('warc-type') === 'warcinfo') {
        warcinfoId = head.get('warc-record-id') ?? null;
        warcinfoEnd = member.offset + member.length;
      }
      return;
    }
    if (head?.get('warc-type') !== 'response') return;
    const digest = head.get('warc-payload-digest');
    const url = head.get('warc-target-uri');
    const date = new Date(head.get('warc-date') ?? '');
    if (digest === undefined || digest === EMPTY_DIGEST || url === undefined || Number.isNaN(date.getTime())) return;
    const recordId = head.get('warc-record-id');
    remember(digest, { url, date, ...(recordId !== undefined && { recordId }) });
  });
  return { file, warcinfoId, warcinfoEnd, repair };
}
