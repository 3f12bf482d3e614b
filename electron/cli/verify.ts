import { parseArgs } from 'node:util';
import { verify, VerifyInputError } from '../engine/export/verify.js';
import { ByteProgress } from './byteProgress.js';
import { formatBytes, plural } from '../../shared/format.js';
import { VERIFY_USAGE } from './usage.js';

/**
 * `harvest verify`: re-hashes every file of a bag or WACZ against its manifests. Prints a verdict
 * and one line per problem; exit 0 valid, 1 invalid, 2 bad input.
 */
export async function runVerify(args: string[]): Promise<number> {
  let values: { json?: boolean; quiet?: boolean };
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args,
      options: { json: { type: 'boolean' }, quiet: { type: 'boolean' } },
      allowPositionals: true,
      strict: true,
    }));
  } catch (e) {
    return usageError((e as Error).message);
  }
  if (positionals.length !== 1) return usageError('verify needs exactly one <bag-dir-or-wacz>');

  const progress = new ByteProgress(process.stderr, values.quiet ?? false);
  let report;
  try {
    report = await verify(positionals[0]!, { onProgress: (p) => progress.update(p) });
  } catch (e) {
    progress.done();
    if (e instanceof VerifyInputError) {
      process.stderr.write(`harvest: ${e.message}\n`);
      return 2;
    }
    throw e;
  }
  progress.done();
  if (values.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
  else {
    const what = report.format === 'bagit' ? 'bag' : 'WACZ';
    const counts = `${plural(report.files, 'file')}, ${formatBytes(report.bytes)} hashed`;
    process.stdout.write(
      report.ok
        ? `valid ${what}: ${report.target} (${counts})\n`
        : `INVALID ${what}: ${report.target} (${plural(report.problems.length, 'problem')}; ${counts})\n` +
            report.problems.map((p) => `${p.kind}\t${p.path}\t${p.detail}\n`).join(''),
    );
  }
  return report.ok ? 0 : 1;
}

function usageError(message: string): number {
  process.stderr.write(`harvest: ${message}\nusage: ${VERIFY_USAGE}\n`);
  return 2;
}
