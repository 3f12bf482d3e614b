import type { DeleteReport } from '../../shared/appViews.js';

/** One sentence on what deleting a job did to its archive folder. */
export function deletionSummary(name: string, r: DeleteReport): string {
  if (r.kept) return `Deleted the job “${name}”. Its archive folder is kept at ${r.archiveDir}; Open archive… in the Library adds it back.`;
  if (r.refused) return `Deleted the job “${name}”, but nothing in its folder: ${r.refused}.`;
  if (r.folderRemoved) return `Deleted “${name}” and its archive folder.`;
  const left = r.leftBehind.length ? ` Left there because Harvest did not make ${r.leftBehind.length === 1 ? 'it' : 'them'}: ${r.leftBehind.join(', ')}.` : '';
  return `Deleted “${name}” and its archive; the folder ${r.archiveDir} stays.${left}`;
}
