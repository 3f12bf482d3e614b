import { parseArgs } from 'node:util';
import { verify, VerifyInputError, type VerifyReport } from '../engine/export/verify.js';
import { ByteProgress } from './byteProgress.js';
import { formatBytes, plural } from '../../shared/format.js';
import { VERIFY_USAGE } from './usage.js';

/** Exit statuses: valid; damaged (a problem in a bag or WACZ); bad arguments or not a bag/WACZ at all. */
const VALID = 0;
const DAMAGED = 1;
const BAD_INPUT = 2;

/**
 * `harvest verify`: re-hashes every file of a bag or WACZ against its manifests (with --deep, also
 * every WARC record's digests, framing and gzip members). Prints a verdict and one line per
 * problem, or with --json one JSON document, errors included.
 */
export async function runVerify(args: string[]): Promise<number> {
  // Known before parsing, so that even a malformed command line is answered in JSON.
  const json = args.includes('--json');
  let values: { json?: boolean; quiet?: boolean; deep?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, quiet: { type: 'boolean' }, deep: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (e) {
    return failure(json, 'usage', (e as Error).message);
  }
  if (positionals.length !== 1) return failure(json, 'usage', 'verify needs exactly one <bag-dir-or-wacz>');

  const progress = new ByteProgress(process.stderr, values.quiet ?? false);
  let report: VerifyReport;
  try {
    report = await verify(positionals[0]!, { deep: values.deep ?? false, onProgress: (p) => progress.update(p) });
  } catch (e) {
    progress.done();
    if (e instanceof VerifyInputError) return failure(json, 'input', e.message);
    if (!json) throw e;
    return failure(json, 'internal', (e as Error).message, DAMAGED);
  }
  progress.done();
  if (json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else {
    const what = report.format === 'bagit' ? 'bag' : 'WACZ';
    const records = report.records === undefined ? '' : `, ${plural(report.records, 'WARC record')} checked`;
    const counts = `${plural(report.files, 'file')}, ${formatBytes(report.bytes)} hashed${records}`;
    process.stdout.write(
      report.ok
        ? `valid ${what}: ${report.target} (${counts})\n`
        : `INVALID ${what}: ${report.target} (${plural(report.problems.length, 'problem')}; ${counts})\n` +
            report.problems.map((p) => `${p.kind}\t${p.path}\t${p.detail}\n`).join(''),
    );
  }
  return report.ok ? VALID : DAMAGED;
}

/** A verify that could not run: a line on stderr with the usage, or a JSON document on stdout. */
function failure(json: boolean, kind: 'usage' | 'input' | 'internal', message: string, status = BAD_INPUT): number {
  if (json) process.stdout.write(JSON.stringify({ ok: false, error: { kind, message }, exitCode: status }, null, 2) + '\n');
  else {
    process.stderr.write(`harvest: ${message}\n`);
    if (kind === 'usage') process.stderr.write(`usage: ${VERIFY_USAGE}\n`);
  }
  return status;
}
