/**
 * The archive's SQLite catalogue: frontier, done set, per-URL log and checkpoints in one file, so a
 * crawl's whole state commits atomically and memory stays flat however large the site.
 */
export const SCHEMA_VERSION = 5;

/**
 * What takes an archive of an older version to this one, by that version, run after SCHEMA_SQL
 * (which adds missing tables). 1 -> 2: originals can be places in the WARC files. 2 -> 3: kept
 * for the catalogue change of recurring harvests. 3 -> 4 and 4 -> 5: columns in ADDED_COLUMNS.
 */
export const SCHEMA_UPGRADES: Readonly<Record<number, string>> = {
  1: `
ALTER TABLE payload_captures ADD COLUMN file TEXT;
ALTER TABLE payload_captures ADD COLUMN offset INTEGER;
ALTER TABLE payload_captures ADD COLUMN length INTEGER;
`,
  2: '',
  3: '',
  4: '',
};

/**
 * Columns added after version 2, with the statement that adds each (urls.attempts: a queued URL's
 * failed attempts so far, so the retry limit holds across a kill; urls.score: a focused harvest's
 * best-first score, its index in SCHEMA_INDEXES_SQL). The catalogue adds whichever an archive
 * lacks, whatever its recorded version, so upgrades that landed in either order meet.
 */
export const ADDED_COLUMNS: readonly { table: string; column: string; sql: string }[] = [
  { table: 'urls', column: 'attempts', sql: 'ALTER TABLE urls ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0' },
  { table: 'urls', column: 'score', sql: 'ALTER TABLE urls ADD COLUMN score REAL' },
];

/** Indexes on added columns, created once the columns exist. */
export const SCHEMA_INDEXES_SQL = `
-- Best-first order within a site for focused harvests: highest score, then discovery.
CREATE INDEX IF NOT EXISTS urls_best ON urls (site, score DESC, id) WHERE state = 'queued';
`;

export const SCHEMA_SQL = `
CREATE TABLE IF NOT EXISTS meta (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- One row per canonical URL ever discovered: the done set, the run queue (state = 'queued') and the log.
CREATE TABLE IF NOT EXISTS urls (
  id INTEGER PRIMARY KEY,
  url TEXT NOT NULL UNIQUE,
  site TEXT NOT NULL,
  depth INTEGER NOT NULL,
  state TEXT NOT NULL,
  -- discovered only as something a page needs to render (may lie outside the scope)
  requisite INTEGER NOT NULL DEFAULT 0,
  parent_id INTEGER,
  via TEXT,
  type_hint TEXT,
  redirect_hops INTEGER NOT NULL DEFAULT 0,
  http_status INTEGER,
  content_type TEXT,
  bytes INTEGER,
  -- for archived URLs their file in the mirror; for redirects the file their chain ends at
  local_path TEXT,
  redirect_to_id INTEGER,
  skip_reason TEXT,
  error TEXT,
  title TEXT,
  fetched_at TEXT,
  -- failed attempts so far of a URL still queued for a retry (transient failures only)
  attempts INTEGER NOT NULL DEFAULT 0,
  -- focused harvests: filter levels passed plus the link's score in [0, 1); NULL in other crawls
  score REAL
);
-- Breadth-first order within a site: depth, then discovery.
CREATE INDEX IF NOT EXISTS urls_queue ON urls (site, depth, id) WHERE state = 'queued';

-- The references in a saved document whose target was not archived yet when the copy was written,
-- with what was written for each (NULL: left absolute). A mismatch with the target's final
-- local_path means the copy needs redoing; a reference to an archived file never does.
CREATE TABLE IF NOT EXISTS links (
  from_id INTEGER NOT NULL,
  to_id INTEGER NOT NULL,
  kind TEXT NOT NULL,
  text TEXT,
  written TEXT
);
CREATE INDEX IF NOT EXISTS links_from ON links (from_id);

-- Distinct query strings seen per URL-without-query, for the query-variants trap guard.
CREATE TABLE IF NOT EXISTS query_variants (
  key TEXT PRIMARY KEY,
  n INTEGER NOT NULL
);

-- robots.txt as fetched per site, so a resumed crawl obeys exactly what it obeyed before.
CREATE TABLE IF NOT EXISTS robots (
  site TEXT PRIMARY KEY,
  http_status INTEGER,
  body TEXT,
  error TEXT,
  fetched_at TEXT NOT NULL
);

-- The original bytes of each saved HTML and CSS document, so its copy can be rewritten again once
-- the fate of every URL it references is known: where its payload is in the WARC files (its response
-- record, or for a revisit its first capture's), or, without such a place, deflated here.
CREATE TABLE IF NOT EXISTS originals (
  url_id INTEGER PRIMARY KEY,
  content_type TEXT,
  body BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS original_records (
  url_id INTEGER PRIMARY KEY,
  -- the WARC file's finished name, its record's gzip member
  file TEXT NOT NULL,
  offset INTEGER NOT NULL,
  length INTEGER NOT NULL,
  -- this response's own Content-Encoding (a revisit's first capture may have been sent otherwise)
  content_encoding TEXT
);

-- Focused harvests: each HTML page's relevance to the template's topic, what it was judged
-- (relevant, off-topic, near-duplicate), the page it repeats, and its SimHash and body digest.
CREATE TABLE IF NOT EXISTS focus_pages (
  url_id INTEGER PRIMARY KEY,
  relevance REAL NOT NULL,
  topic_state TEXT NOT NULL,
  duplicate_of INTEGER,
  simhash TEXT NOT NULL,
  digest TEXT NOT NULL
);

-- Fields extracted from a focused harvest's final pages, one row per page, capture and field.
CREATE TABLE IF NOT EXISTS extracted (
  url_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  -- when the page was captured (its WARC record's date)
  capture TEXT NOT NULL,
  field TEXT NOT NULL,
  value TEXT NOT NULL,
  confidence REAL NOT NULL,
  PRIMARY KEY (url_id, capture, field)
);

-- The first capture of each payload digest (sha256:<base32>) recorded in the WARC files, so an
-- identical payload met in a later run is written as a revisit pointing back to it.
CREATE TABLE IF NOT EXISTS payload_captures (
  digest TEXT PRIMARY KEY,
  url TEXT NOT NULL,
  date TEXT NOT NULL,
  record_id TEXT NOT NULL,
  -- its response record's gzip member (NULL in captures saved by schema version 1)
  file TEXT,
  offset INTEGER,
  length INTEGER
);
`;
