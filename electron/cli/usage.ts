import { parseArgs, type ParseArgsConfig } from 'node:util';
/**
 * What every command shares about how it is called, kept apart from the commands themselves so
 * that `harvest` loads a command's module (and its dependencies) only when that command runs.
 */

export const COMMANDS = ['crawl', 'resume', 'recrawl', 'changes', 'captures', 'stats', 'list', 'extract', 'export', 'metadata', 'verify', 'serve', 'search', 'reindex', 'repair', 'import', 'cdx', 'report', 'qa', 'patch', 'thumbnails', 'control', 'cluster', 'worker'] as const;
export type CliCommand = (typeof COMMANDS)[number];

/** The command line itself is wrong: reported with the command's usage line, exit status 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The command whose usage line to print; none for `harvest` itself. */
    readonly command?: CliCommand,
  ) {
    super(message);
  }
}

export const METADATA_USAGE = 'harvest metadata <archive-dir> [--set field=value ...] [--json]';
export const VERIFY_USAGE = 'harvest verify <bag-dir-or-wacz> [--deep] [--json] [--quiet]';
export const SEARCH_USAGE = 'harvest search <archive-dir> <query> [--json] [--limit N] [--type html|pdf|text] [--capture N]';
export const REINDEX_USAGE = 'harvest reindex <archive-dir> [--quiet]';
export const CONTROL_USAGE =
  'harvest control <archive-dir> [--connections <n>] [--delay-ms <ms> | --adaptive-delay]\n       harvest control --db <postgres-url> [--connections <n>] [--delay-ms <ms> | --adaptive-delay] [--workers <n> | --all-workers] [--pause | --resume]';
export const THUMBNAILS_USAGE = 'harvest thumbnails <archive-dir> [--browser-path <file>] [--quiet]';
export const REPAIR_USAGE = 'harvest repair <archive-dir> [--quiet]';
export const IMPORT_USAGE = 'harvest import <file-or-folder>... --out <archive-dir> [--name <title>] [--quiet] [--events-jsonl <file>]';
export const CDX_USAGE = 'harvest cdx <archive-dir> <url> [--match exact|prefix|host|domain] [--sort reverse|closest] [--closest <ts>] [--from <ts>] [--to <ts>] [--limit <n>] [--json]';
export const REPORT_USAGE = 'harvest report <archive-dir> --format html|json|md [--out <file>]';
export const QA_USAGE = 'harvest qa <archive-dir> [--capture N] [--limit N] [--fresh] [--copies mirror,replay] [--wacz <file>] [--json] [--browser-path <file>] [--quiet]';
export const PATCH_USAGE = 'harvest patch <archive-dir> [--json] [--browser-path <file>] [--quiet]';

/** Each command's one-line synopsis, printed when it is called wrongly. */
export const SYNOPSIS: Record<CliCommand, string> = {
  crawl: 'harvest crawl <url>... --out <archive-dir> [options]',
  resume: 'harvest resume <archive-dir> [--retry-failed] [--quiet] [--events-jsonl <file>]',
  recrawl: 'harvest recrawl <archive-dir> [--quiet] [--events-jsonl <file>]',
  changes: 'harvest changes <archive-dir> [--capture <n>] [--since <m>] [--limit <n>] [--json]',
  captures: 'harvest captures <archive-dir> [--json]',
  stats: 'harvest stats <archive-dir> [--json]',
  list: 'harvest list <archive-dir> [--json]',
  extract: 'harvest extract <archive-dir> [--format csv|json|report] [--not-duplicate <url>]...',
  export: 'harvest export <archive-dir> --format wacz|warc|zip|bagit --out <path> [--capture N] [--include-mirror] [--no-page-text] [--bag-checksums <algs>] [--quiet]',
  metadata: METADATA_USAGE,
  verify: VERIFY_USAGE,
  serve: 'harvest serve [--port <n>] [--viewer-port <n>] [--data-dir <dir>] [--open <archive-dir> ...]',
  search: SEARCH_USAGE,
  reindex: REINDEX_USAGE,
  repair: REPAIR_USAGE,
  import: IMPORT_USAGE,
  cdx: CDX_USAGE,
  report: REPORT_USAGE,
  qa: QA_USAGE,
  patch: PATCH_USAGE,
  thumbnails: THUMBNAILS_USAGE,
  control: CONTROL_USAGE,
  cluster: 'harvest cluster init --db <postgres-url> --name <n> <url>... [crawl options] | status --db <url> [--json] | export --db <url> --store <dir> --format wacz|warc|zip|bagit --out <path>',
  worker: 'harvest worker --db <postgres-url> --store <dir> [--id <name>] [--lease-seconds <s>] [--sites <n>] [--local-address <ip>] [--browser-path <file>] [--db-wait-seconds <s>]',
};

const CRAWL_OPTIONS_HELP = `options:
  --out, -o <dir>               the archive folder to create (required)
  --seeds-file <file>           more seed URLs, one per line ('#' starts a comment)
  --template <file>             a focused harvest: topic, filter levels, extraction fields (JSON; see README)
  --name <text>                 name of the harvest
  --scope host|domain|prefix    what counts as the site (default host)
  --include <regex>             also crawl URLs matching (repeatable)
  --exclude <regex>             never crawl URLs matching (repeatable)
  --max-depth <n>  --max-pages <n>  --max-bytes <n>  --max-duration <seconds>
  --connections <n>             parallel requests per host (default 2)
  --delay-ms <n>                fixed gap between request starts to one host (default: adaptive,
                                twice the last response time, at least 250 ms)
  --ignore-robots               do not obey robots.txt (recorded in the archive)
  --no-offsite-requisites       do not fetch images/CSS/scripts from other hosts
  --allow-network <cidr>        also reach hosts on this private or local network, e.g. 10.20.0.0/16
                                (repeatable; without it only the seeds' own hosts may be on one)
  --no-warc                     do not record WARC files (the mirror only)
  --contact <url-or-email>      how site owners reach you, sent in the User-Agent (none by default)
  --accept-language <tags>      languages to ask for, e.g. "fr, en;q=0.5" (recorded in the WARC)
  --user-agent-suffix <text>    added to the User-Agent
  --header <'Name: value'>      an extra request header (repeatable)
  --cookies <cookies.txt>       send the cookies of a Netscape cookies.txt where they match
  --auth-user <name>            HTTP basic auth for the seeds' sites; the password is read from
                                the HARVEST_AUTH_PASSWORD environment variable
  --auth-prefix <url>           send basic auth only to URLs under this prefix
  --max-url-length <n>  --max-path-slashes <n>  --max-segment-repeats <n>
  --max-query-params <n>  --max-query-variants <n>     crawler-trap guards
  --max-response-bytes <n>  --deadline-ms <n>          per-request limits
  --render                      load each page in headless Chromium and archive what it shows
                                (JavaScript-built content), with a thumbnail of each page
  --browser-path <file>         the Chromium/Chrome/Edge to render with (default: $HARVEST_CHROMIUM,
                                then the usual install places)
  --render-pages <n>            pages rendering at once (default 2)
  --page-timeout <seconds>      time limit per rendered page (default 30)
  --screenshots                 also keep a full-page screenshot of each rendered page
  --quiet                       no progress line
  --events-jsonl <file>         append every crawl event to <file>, one JSON line each
Ctrl-C pauses and checkpoints; 'harvest resume' continues.`;

/** `harvest <command> --help`: what the command does, its synopsis and its options. */
export const COMMAND_HELP: Record<CliCommand, string> = {
  crawl: `Harvest one or more sites into a new archive folder.\n\nusage: ${SYNOPSIS.crawl}\n\n${CRAWL_OPTIONS_HELP}`,
  resume: `Continue a paused or interrupted crawl (or import) where it stopped.\n\nusage: ${SYNOPSIS.resume}\n\noptions:\n  --retry-failed          queue every URL that failed (a refused connection, a timeout...) again first,\n                          also in a finished crawl: the pages they link to are found then\n  --quiet                 no progress line\n  --events-jsonl <file>   append every crawl event to <file>, one JSON line each`,
  recrawl: `Capture the archive's site again (same seeds, scope and settings), once its last capture has finished:\nconditional requests, unchanged pages recorded as WARC revisits and left as they are in the mirror.\n\nusage: ${SYNOPSIS.recrawl}\n\noptions:\n  --quiet                 no progress line\n  --events-jsonl <file>   append every crawl event to <file>, one JSON line each\nCtrl-C pauses and checkpoints; 'harvest resume' continues.`,
  changes: `What changed in a capture: counts by outcome (new, changed, markup-only, unchanged, not modified,\nremoved, failed) and the URLs new, changed, markup-only and removed.\n\nusage: ${SYNOPSIS.changes}\n\noptions:\n  --capture <n>   the capture to report (default the latest)\n  --since <m>     compare with capture m (default the one before)\n  --limit <n>     at most n URLs per list (counts are never capped)\n  --json          {"capture", "previous", "counts", "new", "changed", "markupOnly", "removed"}`,
  captures: `Every capture of an archive: its state, start, counts by outcome and bytes added.\n\nusage: ${SYNOPSIS.captures}\n\noptions:\n  --json   the captures as JSON`,
  stats: `Counts by outcome and skip reason, bytes and crawl time of an archive.\n\nusage: ${SYNOPSIS.stats}\n\noptions:\n  --json   the figures as JSON`,
  list: `One line per URL of an archive: outcome, HTTP status, URL, local file or reason.\n\nusage: ${SYNOPSIS.list}\n\noptions:\n  --json   one JSON record per line`,
  extract: `A focused harvest's extracted fields, one row per page capture, on standard output.\n\nusage: ${SYNOPSIS.extract}\n\noptions:\n  --format <f>   csv (default: url, capture, then each field and its confidence) or json`,
  export: `Package an archive as WACZ, WARC, a ZIP of the offline copy or a BagIt bag.\n\nusage: ${SYNOPSIS.export}\n\noptions:\n  --format <f>        wacz, warc, zip or bagit (required)\n  --out, -o <path>    the file (or bag folder) to write (required)\n  --capture <n>       wacz, warc, bagit: only capture n (and the earlier records its revisits refer to); default every capture\n  --include-mirror    bagit: also put the offline copy in the bag\n  --no-page-text      wacz: leave each page's text out of pages.jsonl\n  --bag-checksums <algs>  bagit: manifest algorithms, comma-separated: sha512 (default), sha256, sha1, md5\n  --quiet             no progress line`,
  metadata: `Show or edit an archive's Dublin Core description.\n\nusage: ${SYNOPSIS.metadata}\n\nfields: the fifteen Dublin Core elements (title, creator, subject, description, publisher,\ncontributor, date, type, format, identifier, source, language, relation, coverage, rights) and\nsourceOrganization, contactEmail. subject, contributor and language take comma-separated values;\nan empty value clears a field. date is ISO 8601 / EDTF (2026, 2026-05-14, 2020/2026, 2026-05~,\n1990?, 2026-01/..); languages are BCP 47 tags (en, fr-CA). Saving rewrites the mirror's index.html.`,
  verify: `Re-hash a bag or WACZ against its manifests: exit 0 valid, 1 damaged (a file missing, altered or\nunlisted, a ZIP cut short, a bag without bagit.txt), 2 bad arguments or not a bag or WACZ at all.\n\nusage: ${SYNOPSIS.verify}\n\noptions:\n  --deep    also read every WARC record back: block and payload digests, framing, gzip CRCs\n  --json    the report, or the error, as JSON on stdout\n  --quiet   no progress line`,
  search: `Full-text search of an archive's pages, best first (BM25), with highlighted snippets.\nQueries: words (all must match), "a phrase", OR, NOT, prefix*.\n\nusage: ${SEARCH_USAGE}\n\noptions:\n  --json          {"total": N, "hits": [...]} instead of lines\n  --limit <n>     at most n hits (default 20)\n  --type <t>      only html, pdf or text documents\n  --capture <n>   only that capture`,
  reindex: `Build the full-text index of an archive from its saved pages, without crawling again.\n\nusage: ${REINDEX_USAGE}\n\noptions:\n  --quiet   no progress line`,
  repair: `Rebuild a damaged catalogue from the archive's WARC files (as an import of them would), in a\nnew folder that takes the archive's place; the damaged folder is kept beside it as\n<archive-dir>.damaged-<time>. The rebuilt archive is finished: a crawl's queue and settings are not\nin the WARC files.\n\nusage: ${REPAIR_USAGE}\n\noptions:\n  --quiet   no progress line`,
  import: `Import other tools' WARC (1.0, 1.1, plain or gzipped) and WACZ files as a new archive: catalogue,\nsearch index, offline copy; the records are kept as they are. A folder means its .warc, .warc.gz and\n.wacz files. A record that cannot be read is named (file, byte offset, why) and skipped.\nCtrl-C pauses at the next record; the same command again, or 'harvest resume <archive-dir>', goes on\nfrom there, as it does after a crash.\n\nusage: ${IMPORT_USAGE}\n\noptions:\n  --out, -o <dir>   the archive folder to create (required)\n  --name <title>    the archive's name (default: after the first input)\n  --quiet           no progress line\n  --events-jsonl <file>  append a JSON line at each commit (records committed) and when the\n                    offline copy's writing starts`,
  cdx: `The captures of a URL as pywb's CDX server lists them: urlkey, timestamp, url, mime, status,\ndigest, length, offset, filename (the WARC record holding the payload), by URL then time.\n\nusage: ${CDX_USAGE}\n\noptions:\n  --match <m>    exact (default), prefix (URLs starting with it), host, or domain (with subdomains)\n  --from, --to   timestamps of 1 to 14 digits (yyyyMMddHHmmss), inclusive\n  --limit <n>    at most n lines\n  --json         one JSON object a line instead of CDXJ lines`,
  report: `Write the archive's quality report for the collection record.\n\nusage: ${REPORT_USAGE}\n\noptions:\n  --format <f>       html (one self-contained printable file), json or md (required)\n  --out, -o <file>   write to <file> instead of standard output`,
  qa: `Compare each archived HTML page as the site shows it now with its copies (the offline copy and the\nWACZ replay in ReplayWeb.page), all rendered in the same browser: text match, screenshot match, resources the copy could not load, dead links.\nResults are kept in the archive (a second run resumes; --fresh starts again) and go into the QA\nreport. Exit 0 when every page was compared, 1 when some could not be.\n\nusage: ${QA_USAGE}\n\noptions:\n  --capture <n>           the capture to analyse (default the newest; an earlier one is read from its WARC records)\n  --limit <n>             analyse at most n pages (a sample)\n  --fresh                 analyse again pages an earlier run analysed\n  --copies <list>         the copies compared: mirror, replay or both (default mirror,replay)\n  --wacz <file>           replay this WACZ exported from the archive (default: the capture exported to a temporary file)\n  --json                  every analysed page, worst first, as JSON on standard output\n  --browser-path <file>   the Chromium/Chrome/Edge to use (default: the job's, $HARVEST_CHROMIUM, the usual places)\n  --quiet                 no progress line`,
  patch: `Fetch into the newest capture every resource its page analysis (harvest qa) found missing, by\nthe job's scope, politeness, robots.txt and address rules, as a resume of the crawl does (WARC\nrecords, offline copy, catalogue), then analyse again the pages that lacked one fetched now and\nprint each page's figures before and after. Exit 0 when the run ended, 130 when interrupted (run it\nagain to go on).\n\nusage: ${PATCH_USAGE}\n\noptions:\n  --json                  what became of each resource and the pages' figures before and after, as JSON\n  --browser-path <file>   the Chromium/Chrome/Edge to use (default: the job's, $HARVEST_CHROMIUM, the usual places)\n  --quiet                 no progress line`,
  control: `Change a crawl's politeness while it runs (within a second, whichever process runs it), or for\nits next run when none is running. The change is kept with the job.\n\nusage: ${CONTROL_USAGE}\n\noptions:\n  --connections <n>   requests at once per host (1-64)\n  --delay-ms <ms>     a fixed gap between the starts of two requests to one host\n  --adaptive-delay    twice the host's last response time, at least 250 ms\n\nA cluster harvest (--db): every worker takes the change before its next batch, and\n  --workers <n>       only the first n live workers (by id) lease; the others stand by\n  --all-workers       every live worker leases again\n  --pause             workers finish the batches they hold and take no new one\n  --resume            workers take batches again`,
  thumbnails: `Make the missing thumbnails of an archive's pages from its offline copy, with nothing but\nthe copy reachable (written under thumbnails/, not to the WARC).\n\nusage: ${THUMBNAILS_USAGE}\n\noptions:\n  --browser-path <file>   the Chromium/Chrome/Edge to use (default: the job's, $HARVEST_CHROMIUM, the usual places)\n  --quiet                 no progress line`,
  serve: `Run the app in a browser: prints a http://127.0.0.1 address with a secret token to open.\nCtrl-C pauses running crawls (checkpointed) and exits.\n\nusage: ${SYNOPSIS.serve}\n\noptions:\n  --port <n>         the app's port (default: any free port)\n  --viewer-port <n>  the port serving every archive's pages, each as <archive-id>.localhost (default: any free port)\n  --data-dir <dir>   where jobs are kept (default: the per-user data folder)\n  --open <dir>       add an archive folder on disk (say, one kept when its job was deleted) to the library (repeatable)`,
  cluster: `A harvest spread over several machines, on PostgreSQL (see README, Cluster harvests).\n\nusage:\n  harvest cluster init --db <postgres-url> --name <n> <url>... [crawl options] [--lease-timeout <s>]\n      create the harvest in an empty database, with the options of 'harvest crawl' (no --out:\n      the workers write under their --store; --template without its seeds and crawlProbability\n      parts); a worker silent for --lease-timeout seconds (default 15) loses its leases and sites\n  harvest cluster status --db <url> [--json]\n      per worker: state, rate over the last 30 s, batch size, mean fetch time, sites held, failures;\n      a focused harvest's relevant, off-topic and near-duplicate pages and harvest rate\n  harvest cluster export --db <url> --store <dir> --format wacz|warc|zip|bagit --out <path> [--quiet]\n      one bundle from every worker's WARC files (files killed workers left open are finished first)`,
  worker: `Run a worker of a cluster harvest until the harvest has nothing left (exit 0); Ctrl-C or SIGTERM\nstops it, giving its unfinished URLs back (exit 130).\n\nusage: ${SYNOPSIS.worker}\n\noptions:\n  --db <url>              the harvest's PostgreSQL database (required)\n  --store <dir>           the shared store: warc/ (this worker's files, named after it) and mirror/ (required)\n  --id <name>             the worker's name, letters, digits, '.', '_', '-' (default: host-pid)\n  --lease-seconds <s>     how long a batch should take at this worker's pace (default 10)\n  --sites <n>             sites served at once (default 16)\n  --local-address <ip>    the source address of its requests\n  --retry-backoff-ms <n>  back-off before a transient failure's first retry (default 2000)\n  --browser-path <file>   the browser to render with on this machine, for a --render harvest\n                          (default: the harvest's, else $HARVEST_CHROMIUM, else the usual places)\n  --db-wait-seconds <s>   how long to wait for the database when it goes out of reach (a restart,\n                          a stop) before giving up, keeping the batches in hand (default 300)\n  --quiet                 no log lines`,
};

/** Whether the arguments ask for help (`-h` or `--help` anywhere). */
export const wantsHelp = (args: readonly string[]): boolean => args.includes('--help') || args.includes('-h');

/** A command's arguments parsed strictly; a wrong flag is a UsageError that prints the command's usage line. */
export function parseCommandArgs<O extends NonNullable<ParseArgsConfig['options']>>(command: CliCommand, args: string[], options: O) {
  try {
    return parseArgs({ args, options, allowPositionals: true, strict: true });
  } catch (e) {
    throw new UsageError((e as Error).message, command);
  }
}
