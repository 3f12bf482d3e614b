import type { ChangeReport } from '../../shared/captures.js';
import { formatBytes, plural } from '../../shared/format.js';
import { Archive } from '../engine/store/archive.js';
import { parseCommandArgs, UsageError } from './usage.js';

/** `harvest changes` (what changed in a capture) and `harvest captures` (every capture with its counts). */
export async function runCaptureCommand(command: 'changes' | 'captures', args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs(
    command,
    args,
    command === 'changes'
      ? { json: { type: 'boolean' }, capture: { type: 'string' }, since: { type: 'string' }, limit: { type: 'string' } }
      : { json: { type: 'boolean' } },
  );
  if (positionals.length !== 1) throw new UsageError(`${command} needs exactly one <archive-dir>`, command);
  const archive = Archive.open(positionals[0]!, { readonly: true });
  try {
    const c = archive.catalogue;
    const captures = c.listCaptures();
    if (command === 'captures') {
      if (values.json) return print(JSON.stringify(captures, null, 2));
      for (const k of captures) {
        const n = k.counts;
        print(
          `capture ${k.id}\t${k.state}\t${k.startedAt}\t${n.new} new, ${n.restored} restored, ${n.changed} changed, ${n.markupOnly} markup-only, ` +
            `${n.unchanged} unchanged, ${n.notModified} not modified, ${n.removed} removed, ${plural(n.httpErrors, 'HTTP error')}, ${n.failed} failed, ${formatBytes(k.bytesAdded)} added`,
        );
      }
      return 0;
    }
    const v = values as { json?: boolean; capture?: string; since?: string; limit?: string };
    const known = new Set(captures.map((k) => k.id));
    const capture = captureNumber(v.capture, '--capture', known);
    const since = captureNumber(v.since, '--since', known);
    if (capture !== undefined && since !== undefined && since >= capture) throw new UsageError(`--since ${since} must be an earlier capture than ${capture}`, 'changes');
    const limit = v.limit === undefined ? undefined : whole(v.limit, '--limit');
    const report = c.changes({
      ...(capture !== undefined && { capture }),
      ...(since !== undefined && { since }),
      ...(limit !== undefined && { limit }),
    });
    if (report.previous !== null && report.previous >= report.capture) throw new UsageError(`--since ${report.previous} must be an earlier capture than ${report.capture}`, 'changes');
    print(v.json ? JSON.stringify(report) : describe(report));
    return 0;
  } finally {
    archive.close();
  }
}

function print(text: string): number {
  process.stdout.write(text + '\n');
  return 0;
}

function whole(v: string, flag: string): number {
  if (!/^\d+$/.test(v)) throw new UsageError(`${flag} needs a whole number, got '${v}'`, 'changes');
  return Number(v);
}

function captureNumber(v: string | undefined, flag: string, known: Set<number>): number | undefined {
  if (v === undefined) return undefined;
  const n = whole(v, flag);
  if (!known.has(n)) throw new UsageError(`${flag} ${n}: the archive has captures ${[...known].join(', ') || 'none'}`, 'changes');
  return n;
}

/** The report as `harvest changes` prints it; a list cut by --limit says how many it left out. */
export function describe(r: ChangeReport): string {
  const n = r.counts;
  const lines = [
    `capture ${r.capture}${r.previous === null ? ' (the first)' : ` since capture ${r.previous}`}: ${n.new} new, ${n.restored} restored, ${n.changed} changed, ` +
      `${n.markupOnly} markup-only, ${n.unchanged} unchanged, ${n.notModified} not modified, ${n.removed} removed, ${plural(n.httpErrors, 'HTTP error')}, ${n.failed} failed`,
  ];
  for (const [label, urls, total] of [['new', r.new, n.new], ['restored', r.restored, n.restored], ['changed', r.changed, n.changed], ['markup only', r.markupOnly, n.markupOnly], ['removed', r.removed, n.removed]] as const) {
    if (urls.length === 0) continue;
    lines.push(`${label}:`, ...urls.map((u) => `  ${u}`));
    if (total > urls.length) lines.push(`  … and ${total - urls.length} more (the list is cut at --limit)`);
  }
  return lines.join('\n');
}
