import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { collectReport } from '../engine/report/collect.js';
import { reportHtml, reportMarkdown } from '../engine/report/render.js';
import { Archive } from '../engine/store/archive.js';
import { UsageError } from './usage.js';

const FORMATS = ['html', 'json', 'md'] as const;

/** `harvest report <archive-dir> --format html|json|md [--out f]`: to stdout without --out. */
export async function runReport(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args, allowPositionals: true, options: { format: { type: 'string' }, out: { type: 'string', short: 'o' } } });
  } catch (e) {
    throw new UsageError((e as Error).message, 'report');
  }
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('report needs exactly one <archive-dir>', 'report');
  const format = values.format ?? 'html';
  if (!(FORMATS as readonly string[]).includes(format)) throw new UsageError(`--format must be one of ${FORMATS.join(', ')}`, 'report');
  const archive = Archive.open(positionals[0]!, { readonly: true });
  let text: string;
  try {
    const report = await collectReport(archive);
    text = format === 'json' ? JSON.stringify(report, null, 2) + '\n' : format === 'md' ? reportMarkdown(report) : reportHtml(report);
  } finally {
    archive.close();
  }
  if (values.out === undefined) process.stdout.write(text);
  else {
    writeFileSync(values.out, text);
    process.stderr.write(`report written to ${values.out}\n`);
  }
  return 0;
}
