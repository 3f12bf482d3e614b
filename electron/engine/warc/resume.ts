import { parseWarcHead } from './fields.js';
import type { WarcRepair } from './types.js';
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
 * Reopens an unfinished file, cutting a damaged tail after `checkpoint` (see WarcFile.reopen), and
 * reads back what later records need: its warcinfo record's id. Payloads it holds are not read back:
 * revisits find their originals through the writer's `seenDigest`, so resuming costs the tail only.
 */
export async function resumeWarc(dir: string, name: string, checkpoint: number): Promise<ResumedWarc> {
  const { file, first, repair } = await WarcFile.reopen(dir, name, checkpoint);
  const head = first === null ? null : parseWarcHead(first.head.toString('utf8'));
  const isInfo = first !== null && head?.get('warc-type') === 'warcinfo';
  return {
    file,
    warcinfoId: isInfo ? (head.get('warc-record-id') ?? null) : null,
    warcinfoEnd: isInfo ? first.offset + first.length : 0,
    repair,
  };
}
