import { existsSync } from 'node:fs';
import path from 'node:path';
import { QA_COPIES, qaScore, type QaCopy } from '../../shared/qa.js';
import { analyseArchive, QaUsageError } from '../engine/qa/analyse.js';
import { QaStore } from '../engine/qa/qaStore.js';
import { findBrowser } from '../engine/render/browserPath.js';
import { Archive } from '../engine/store/archive.js';
import { CountProgress } from './countProgress.js';
import { parseCommandArgs, UsageError } from './usage.js';
import { onInterrupt } from './interrupts.js';

function count(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`${flag} takes a whole number of at least 1, not '${text}'`, 'qa');
  return n;
}

/** `--copies mirror,replay`: the copies compared, each named once. */
function copiesOf(text: string | undefined): QaCopy[] | undefined {
  if (text === undefined) return undefined;
  const names = [...new Set(text.split(',').map((s) => s.trim()))];
  const unknown = names.filter((n) => !(QA_COPIES as readonly string[]).includes(n));
  if (names.length === 0 || unknown.length > 0) throw new UsageError(`--copies takes ${QA_COPIES.join(', ')} separated by commas, not '${text}'`, 'qa');
  return names as QaCopy[];
}

const pct = (x: number | null) => (x === null ? '  –  ' : `${(x * 100).toFixed(1).padStart(5)}%`);

/** `harvest qa <archive-dir>`: compares every archived page with the live page, worst first. */
export async function runQa(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('qa', args, {
    capture: { type: 'string' },
    limit: { type: 'string' },
    fresh: { type: 'boolean' },
    copies: { type: 'string' },
    wacz: { type: 'string' },
    json: { type: 'boolean' },
    'browser-path': { type: 'string' },
    quiet: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('qa needs exactly one <archive-dir>', 'qa');
  const capture = count('--capture', values.capture);
  const limit = count('--limit', values.limit);
  const copies = copiesOf(values.copies);
  if (values.wacz !== undefined && !existsSync(values.wacz)) throw new UsageError(`--wacz: no file ${values.wacz}`, 'qa');
  const archive = Archive.open(positionals[0]!);
  const abort = new AbortController();
  const stopListening = onInterrupt(() => abort.abort());
  const progress = new CountProgress(process.stderr, 'pages analysed', values.quiet ?? false);
  try {
    const settings = archive.job.render;
    const executablePath = findBrowser(values['browser-path'] ?? settings.browserPath);
    const outcome = await analyseArchive(archive, { ...settings, executablePath }, {
      ...(capture !== undefined && { capture }),
      ...(limit !== undefined && { limit }),
      ...(copies !== undefined && { copies }),
      ...(values.wacz !== undefined && { wacz: path.resolve(values.wacz) }),
      fresh: values.fresh ?? false,
      signal: abort.signal,
      onProgress: (done, total) => progress.update(done, total),
    });
    progress.done();
    const results = new QaStore(archive.catalogue.sqlite).results(outcome.capture);
    if (values.json) process.stdout.write(JSON.stringify({ capture: outcome.capture, pages: results }, null, 2) + '\n');
    else {
      for (const r of results) {
        const extra = r.error ?? [r.missing.length > 0 ? `${r.missing.length} missing` : '', r.deadLinks.length > 0 ? `${r.deadLinks.length} dead links` : ''].filter(Boolean).join(', ');
        const each = QA_COPIES.flatMap((c) => {
          const f = r.copies[c];
          if (!f) return [];
          return [f.skipped ? `${c} skipped` : `${c} ${pct(f.textMatch)}/${pct(f.screenshotMatch)}`];
        });
        process.stdout.write(`text ${pct(r.textMatch)}  screenshot ${pct(r.screenshotMatch)}  ${r.url}  [${each.join(', ')}]${extra ? `  (${extra})` : ''}\n`);
      }
    }
    const failed = results.filter((r) => qaScore(r) === null).length;
    process.stderr.write(
      `qa: capture ${outcome.capture}: ${outcome.analysed} pages analysed now, ${outcome.kept} from an earlier run; ${failed} could not be compared\n`,
    );
    return failed > 0 ? 1 : 0;
  } catch (e) {
    progress.done();
    if (abort.signal.aborted) {
      process.stderr.write('harvest: qa interrupted; run it again to analyse the rest\n');
      return 130;
    }
    if (e instanceof QaUsageError) throw new UsageError(e.message, 'qa');
    throw e;
  } finally {
    stopListening();
    archive.close();
  }
}
