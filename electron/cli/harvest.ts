#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=2 --interrupt-budget=270336
// The line above starts `harvest` (the package's bin, run through it by npm link, npm scripts and the
// bench) with settings given to node as it starts (see README, "Memory" and
// "Thirteenth pass"): glibc's malloc shares two arenas among all threads instead of keeping one per
// thread that allocates (up to 16 on 2 cores); every V8 heap's young generation has 2 MB semi-spaces
// (the crawl loop's was 16 MB; a flag given to node overrides the document workers' resourceLimits);
// and a function runs four times V8's default of bytecode before it is optimised, since compiling
// was a fifth of a short crawl's CPU (PostgreSQL manual 3.74 -> 3.49 ms a request; Apache's and
// Python's manuals unchanged).
import path from 'node:path';
import { JobValidationError } from '../../shared/job.js';
import { checkSeeds, CRAWL_OPTIONS, describeJobError, jobWithSeeds } from './crawlFlags.js';
import { runInlineCrawl } from './inlineCrawl.js';
import { Archive, ArchiveUsageError, MIRROR_DIR } from '../engine/store/archive.js';
import { ArchiveFormatError, ArchiveInUseError } from '../engine/store/catalogue.js';
import { readStats } from '../engine/store/stats.js';
import { FocusStore } from '../engine/store/focusStore.js';
import { urlListLine } from '../engine/report/urlListLine.js';
import { SeedListError } from '../engine/crawl/seedList.js';
import { EventLog } from './eventLog.js';
import { ExportUsageError } from '../engine/export/errors.js';
import { ImportInputError } from '../engine/import/errors.js';
import { ClusterSetupError, ClusterWorkerError } from '../engine/cluster/errors.js';
import { SearchError } from '../engine/store/textIndex.js';
import { DataDirInUseError } from '../host/dataDir.js';
import { BrowserNotFoundError, findBrowser } from '../engine/render/browserPath.js';
import { thumbnailPathFor, thumbnailsIn } from '../engine/store/thumbnails.js';
import { ARCHIVE_MOVED } from '../engine/store/folderIdentity.js';
import { COMMAND_HELP, COMMANDS, parseCommandArgs, SYNOPSIS, UsageError, wantsHelp, type CliCommand } from './usage.js';
import { countsSentence, focusSentence, formatDuration, plural } from '../../shared/format.js';

const USAGE = `usage:
${COMMANDS.map((c) => `  ${SYNOPSIS[c]}`).join('\n')}

'harvest <command> --help' describes a command and its options.
serve runs the app in a browser: it prints a http://127.0.0.1 address with a secret token to open.`;

function openEventLog(file: string | undefined): EventLog | null {
  if (file === undefined) return null;
  try {
    return new EventLog(file);
  } catch (e) {
    throw new UsageError(`--events-jsonl: cannot open ${file} (${(e as NodeJS.ErrnoException).code ?? (e as Error).message})`);
  }
}

/** Runs the crawl on this thread and says how it ended, with the command that carries it on. */
async function runCrawl(dir: string, quiet: boolean, events: EventLog | null, seedsFile?: string): Promise<number> {
  const archiveDir = path.resolve(dir);
  try {
    const outcome = await runInlineCrawl(archiveDir, { quiet, events, ...(seedsFile !== undefined && { seedsFile }) });
    const c = outcome.counts;
    const summary = c ? countsSentence(c) : 'counts unavailable';
    if (outcome.state === 'finished') {
      const problem = outcome.error === null ? '' : `${outcome.error}\n`;
      const retry = c && c.failed > 0 ? `to try the failed URLs again: harvest resume ${archiveDir} --retry-failed\n` : '';
      process.stderr.write(`${problem ? 'finished with errors' : 'finished'}: ${summary}\n${problem}mirror: ${path.join(archiveDir, MIRROR_DIR, 'index.html')}\n${retry}`);
      return 0;
    }
    if (outcome.state === 'paused') {
      process.stderr.write(`paused: ${summary}\nresume with: harvest resume ${archiveDir}\n`);
      return 130;
    }
    // A moved folder's message says where to resume it; the old path holds nothing now.
    const resume = outcome.error?.startsWith(ARCHIVE_MOVED) ? '' : `resume with: harvest resume ${archiveDir}\n`;
    process.stderr.write(`harvest: crawl failed: ${outcome.error ?? 'unknown error'}\n${resume}`);
    return 1;
  } finally {
    await events?.close();
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if ((COMMANDS as readonly (string | undefined)[]).includes(command) && wantsHelp(rest)) {
    process.stdout.write(COMMAND_HELP[command as CliCommand] + '\n');
    return 0;
  }
  switch (command) {
    case 'crawl': {
      const { values, positionals } = parseCommandArgs('crawl', rest, CRAWL_OPTIONS);
      const seedsFile = values['seeds-file'];
      checkSeeds(positionals, seedsFile);
      if (!values.out) throw new UsageError('crawl needs --out <archive-dir>', 'crawl');
      const events = openEventLog(values['events-jsonl']);
      const job = await jobWithSeeds(positionals, seedsFile, values);
      // A missing browser is reported before the archive is made.
      if (job.render.enabled) findBrowser(job.render.browserPath);
      // Created here, so that a bad --out is reported before anything else starts.
      Archive.create(values.out, job).close();
      return runCrawl(values.out, values.quiet ?? false, events, seedsFile);
    }
    case 'resume': {
      const { values, positionals } = parseCommandArgs('resume', rest, {
        quiet: { type: 'boolean' },
        'events-jsonl': { type: 'string' },
        'retry-failed': { type: 'boolean' },
      });
      if (positionals.length !== 1) throw new UsageError('resume needs exactly one <archive-dir>', 'resume');
      // An archive an import was making goes on with the import.
      const imports = await import('./import.js');
      if (imports.isUnfinishedImport(positionals[0]!)) return imports.runImportResume(positionals[0]!, values.quiet ?? false, values['events-jsonl']);
      const events = openEventLog(values['events-jsonl']);
      if (values['retry-failed']) {
        const archive = Archive.open(positionals[0]!);
        try {
          const n = archive.catalogue.transaction(() => archive.catalogue.retryFailed());
          if (!values.quiet) process.stderr.write(`${plural(n, 'failed URL')} queued again\n`);
        } finally {
          archive.close();
        }
      }
      return runCrawl(positionals[0]!, values.quiet ?? false, events);
    }
    case 'recrawl': {
      const { values, positionals } = parseCommandArgs('recrawl', rest, { quiet: { type: 'boolean' }, 'events-jsonl': { type: 'string' } });
      if (positionals.length !== 1) throw new UsageError('recrawl needs exactly one <archive-dir>', 'recrawl');
      const events = openEventLog(values['events-jsonl']);
      // The new capture begins here, in one transaction; the crawl that makes it runs as a resume does.
      const archive = Archive.open(positionals[0]!);
      try {
        const n = archive.beginCapture();
        if (!values.quiet) process.stderr.write(`capture ${n} of ${archive.dir}\n`);
      } finally {
        archive.close();
      }
      return runCrawl(positionals[0]!, values.quiet ?? false, events);
    }
    case 'changes':
    case 'captures':
      return (await import('./changes.js')).runCaptureCommand(command, rest);
    case 'stats': {
      const { values, positionals } = parseCommandArgs('stats', rest, { json: { type: 'boolean' } });
      if (positionals.length !== 1) throw new UsageError('stats needs exactly one <archive-dir>', 'stats');
      const archive = Archive.open(positionals[0]!, { readonly: true });
      try {
        const s = readStats(archive.catalogue);
        if (values.json) process.stdout.write(JSON.stringify(s, null, 2) + '\n');
        else {
          const skips = Object.entries(s.counts.skippedByReason)
            .map(([k, n]) => `${k} ${n}`)
            .join(', ');
          process.stdout.write(
            `${s.name} (${s.state}), seeds ${s.seeds.join(' ')}\n` +
              `${countsSentence(s.counts)}\n` +
              `skipped by reason: ${skips || 'none'}\n` +
              `crawl time ${formatDuration(s.durationMs)}, robots.txt ${s.robotsPolicy}\n` +
              (s.message === null ? '' : `${s.state === 'failed' ? 'failed' : 'problems'}: ${s.message}\n`) +
              (s.harvestRate === undefined
                ? ''
                : `${focusSentence({ relevantPages: s.relevantPages ?? 0, offTopicPages: s.offTopicPages ?? 0, nearDuplicates: s.nearDuplicates ?? 0, harvestRate: s.harvestRate })}\n`),
          );
        }
      } finally {
        archive.close();
      }
      return 0;
    }
    case 'list': {
      const { values, positionals } = parseCommandArgs('list', rest, { json: { type: 'boolean' } });
      if (positionals.length !== 1) throw new UsageError('list needs exactly one <archive-dir>', 'list');
      const archive = Archive.open(positionals[0]!, { readonly: true });
      try {
        // A focused harvest's verdicts, in the same (discovery) order as the records.
        const focus = archive.job.template === null ? null : new FocusStore(archive.catalogue).iterateInUrlOrder();
        const thumbnails = values.json ? thumbnailsIn(archive.dir) : new Set<string>();
        try {
          for (const r of archive.catalogue.iterateRecords()) {
            const f = focus?.next().value;
            const thumbnail = r.localPath === null ? undefined : thumbnailPathFor(r.localPath);
            const record = { ...r, ...f, ...(thumbnail !== undefined && thumbnails.has(thumbnail) && { thumbnail }) };
            const out = values.json ? JSON.stringify(record) : urlListLine(record);
            if (!process.stdout.write(out + '\n')) await new Promise((res) => process.stdout.once('drain', res));
          }
        } finally {
          // Its statement must finish before the catalogue can close.
          focus?.return(undefined);
        }
      } finally {
        archive.close();
      }
      return 0;
    }
    // Loaded on demand: a crawl or a resume starts sooner without the exporters and the web host.
    case 'export':
      return (await import('./export.js')).runExport(rest);
    case 'qa':
      return (await import('./qa.js')).runQa(rest);
    case 'patch':
      return (await import('./patch.js')).runPatch(rest);
    case 'thumbnails':
      return (await import('./thumbnails.js')).runThumbnails(rest);
    case 'control':
      return (await import('./control.js')).runControl(rest);
    case 'metadata':
      return (await import('./metadata.js')).runMetadata(rest);
    case 'extract':
      return (await import('./extract.js')).runExtract(rest);
    case 'verify':
      return (await import('./verify.js')).runVerify(rest);
    case 'serve':
      return (await import('./serve.js')).serve(rest);
    case 'cluster':
      return (await import('./cluster.js')).runCluster(rest);
    case 'worker':
      return (await import('./cluster.js')).runWorker(rest);
    case 'search':
      return (await import('./search.js')).runSearch(rest);
    case 'reindex':
      return (await import('./reindex.js')).runReindex(rest);
    case 'report':
      return (await import('./report.js')).runReport(rest);
    case 'import':
      return (await import('./import.js')).runImport(rest);
    case 'repair':
      return (await import('./repair.js')).runRepair(rest);
    case 'cdx':
      return (await import('./cdx.js')).runCdx(rest);
    case undefined:
    case '-h':
    case '--help':
    case 'help':
      process.stdout.write(USAGE + '\n');
      return command === undefined ? 2 : 0;
    default:
      throw new UsageError(`unknown command '${command}'`);
  }
}

// `harvest list | head` closes the pipe early: that is the reader's choice, not an error.
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code === 'EPIPE') process.exit(0);
  throw e;
});

// A command whose work stopped without settling (a stream that never drains) must not exit 0 in silence.
let settled = false;
process.once('beforeExit', () => {
  if (settled) return;
  process.stderr.write('harvest: stopped before the command finished (work was left waiting); it did not complete\n');
  process.exitCode = 1;
});

main(process.argv.slice(2)).then(
  (code) => {
    settled = true;
    process.exitCode = code;
  },
  (e: unknown) => {
    settled = true;
    const usage = e instanceof UsageError;
    const known =
      usage ||
      e instanceof SeedListError ||
      e instanceof ArchiveUsageError ||
      e instanceof ArchiveInUseError ||
      e instanceof ArchiveFormatError ||
      e instanceof ExportUsageError ||
      e instanceof ImportInputError ||
      e instanceof SearchError ||
      e instanceof DataDirInUseError ||
      e instanceof BrowserNotFoundError ||
      e instanceof ClusterSetupError ||
      e instanceof ClusterWorkerError ||
      e instanceof JobValidationError;
    const message = e instanceof JobValidationError ? describeJobError(e) : e instanceof Error ? e.message : String(e);
    process.stderr.write(`harvest: ${known ? message : `unexpected error: ${message}`}\n`);
    if (usage && e.command) process.stderr.write(`usage: ${SYNOPSIS[e.command]}\nrun 'harvest ${e.command} --help' for its options\n`);
    else if (usage) process.stderr.write(`run 'harvest --help' for usage\n`);
    if (!known && e instanceof Error && e.stack) process.stderr.write(e.stack + '\n');
    process.exitCode = known ? 2 : 1;
  },
);
