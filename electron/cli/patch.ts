import path from 'node:path';
import type { QaPatchedPage, QaPatchReport } from '../../shared/qa.js';
import { analyseArchive } from '../engine/qa/analyse.js';
import { queuePatch, PatchUsageError } from '../engine/qa/patch/patchPlan.js';
import { beforeAfter, pagesToRescore, patchedResources } from '../engine/qa/patch/patchResults.js';
import { QaStore } from '../engine/qa/qaStore.js';
import { findBrowser } from '../engine/render/browserPath.js';
import { Archive } from '../engine/store/archive.js';
import { CountProgress } from './countProgress.js';
import { runInlineCrawl } from './inlineCrawl.js';
import { onInterrupt } from './interrupts.js';
import { parseCommandArgs, UsageError } from './usage.js';
import { plural } from '../../shared/format.js';

const pct = (x: number | null) => (x === null ? '–' : `${(x * 100).toFixed(1)}%`);

function pageLine(p: QaPatchedPage): string {
  const { before: b, after: a } = p;
  return `text ${pct(b.textMatch)} -> ${pct(a.textMatch)}  screenshot ${pct(b.screenshotMatch)} -> ${pct(a.screenshotMatch)}  missing ${b.missing} -> ${a.missing}  ${p.url}\n`;
}

/**
 * `harvest patch <archive-dir>`: fetches what the capture's analysis found missing into the
 * capture, then analyses again the pages that lacked something fetched now.
 */
export async function runPatch(args: string[]): Promise<number> {
  const { values, positionals } = parseCommandArgs('patch', args, {
    json: { type: 'boolean' },
    'browser-path': { type: 'string' },
    quiet: { type: 'boolean' },
  });
  if (positionals.length !== 1) throw new UsageError('patch needs exactly one <archive-dir>', 'patch');
  const archiveDir = path.resolve(positionals[0]!);
  const quiet = values.quiet ?? false;
  let archive = Archive.open(archiveDir);
  let plan;
  let executablePath: string;
  try {
    executablePath = findBrowser(values['browser-path'] ?? archive.job.render.browserPath);
    plan = queuePatch(archive);
  } catch (e) {
    if (e instanceof PatchUsageError) throw new UsageError(e.message, 'patch');
    throw e;
  } finally {
    archive.close();
  }
  if (plan.targets.length > 0) {
    // The fetching is a resume of the capture, run as `harvest resume` runs it.
    const run = await runInlineCrawl(archiveDir, { quiet });
    if (run.state === 'paused') {
      process.stderr.write('harvest: patch interrupted; run it again to fetch the rest\n');
      return 130;
    }
    if (run.state === 'failed') {
      process.stderr.write(`harvest: patch failed: ${run.error ?? 'unknown error'}\n`);
      return 1;
    }
  }
  archive = Archive.open(archiveDir);
  const abort = new AbortController();
  const stopListening = onInterrupt(() => abort.abort());
  const progress = new CountProgress(process.stderr, 'pages analysed again', quiet);
  try {
    const resources = patchedResources(archive, plan);
    const pages = pagesToRescore(plan, resources);
    if (pages.length > 0) {
      await analyseArchive(archive, { ...archive.job.render, executablePath }, { pages, signal: abort.signal, onProgress: (done, total) => progress.update(done, total) });
    }
    progress.done();
    const store = new QaStore(archive.catalogue.sqlite);
    const report: QaPatchReport = { capture: plan.capture, resources, pages: beforeAfter(plan, pages, (url) => store.result(plan.capture, url)) };
    if (values.json) process.stdout.write(JSON.stringify(report, null, 2) + '\n');
    else {
      for (const r of resources) process.stdout.write(`${r.outcome.padEnd(15)} ${r.type.padEnd(10)} ${r.url}${r.detail === null ? '' : `  (${r.detail})`}\n`);
      for (const p of report.pages) process.stdout.write(pageLine(p));
    }
    const fetched = resources.filter((r) => r.outcome === 'fetched').length;
    process.stderr.write(`patch: capture ${plan.capture}: ${fetched} of ${resources.length} missing resources fetched; ${plural(pages.length, 'page')} analysed again\n`);
    return 0;
  } catch (e) {
    progress.done();
    if (abort.signal.aborted) {
      process.stderr.write('harvest: patch interrupted while analysing again; harvest qa --fresh analyses every page anew\n');
      return 130;
    }
    throw e;
  } finally {
    stopListening();
    archive.close();
  }
}
