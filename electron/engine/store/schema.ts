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
 * Captures came with urls.capture: an archive without it held one harvest, which becomes capture 1,
 * each fetched URL's outcome in it `new` (or `failed`), with the payload digest of every URL whose
 * payload was first recorded at that URL (a URL whose payload duplicated another's, and every text
 * digest, is unknown: its next capture compares it by its payload alone).
 */
const CAPTURE_ONE = `
INSERT INTO captures (id, started_at, finished_at, state, duration_ms)
  SELECT 1,
    COALESCE((SELECT value FROM meta WHERE key = 'started_at'), (SELECT value FROM meta WHERE key = 'created_at'), ''),
    (SELECT value FROM meta WHERE key = 'finished_at'),
    COALESCE((SELECT value FROM meta WHERE key = 'state'), 'paused'),
    CAST(COALESCE((SELECT value FROM meta WHERE key = 'duration_ms'), '0') AS INTEGER)
  WHERE NOT EXISTS (SELECT 1 FROM captures);
INSERT OR IGNORE INTO meta (key, value) VALUES ('capture', '1');
CREATE INDEX upgrade_payload_captures_url ON payload_captures (url);
INSERT INTO url_captures (capture_id, url_id, outcome, http_status, content_type, bytes, payload_digest, local_path,
    warc_file, warc_offset, warc_length, content_encoding, fetched_at)
  SELECT 1, u.id,
    CASE WHEN u.state = 'failed' OR u.http_status >= 400 THEN 'failed' ELSE 'new' END,
    u.http_status, u.content_type, u.bytes,
    (SELECT p.digest FROM payload_captures p WHERE p.url = u.url LIMIT 1),
    CASE WHEN u.state = 'archived' THEN u.local_path END,
    COALESCE(r.file, (SELECT p.file FROM payload_captures p WHERE p.url = u.url LIMIT 1)),
    COALESCE(r.offset, (SELECT p.offset FROM payload_captures p WHERE p.url = u.url LIMIT 1)),
    COALESCE(r.length, (SELECT p.length FROM payload_captures p WHERE p.url = u.url LIMIT 1)),
    r.content_encoding,
    u.fetched_at
  FROM urls u LEFT JOIN original_records r ON r.url_id = u.id
  WHERE u.fetched_at IS NOT NULL AND u.state <> 'queued' AND NOT EXISTS (SELECT 1 FROM url_captures);
DROP INDEX upgrade_payload_captures_url;
`;

/**
 * Columns added after version 2, with the statement that adds each (urls.attempts: a queued URL's
 * failed attempts so far, so the retry limit holds across a kill; urls.score: a focused harvest's
 * best-first score, its index in SCHEMA_INDEXES_SQL). The catalogue adds whichever an archive
 * lacks, whatever its recorded version, so upgrades that landed in either order meet.
 */
export const ADDED_COLUMNS: readonly { table: string; column: string; sql: string }[] = [
  { table: 'urls', column: 'attempts', sql: 'ALTER TABLE urls ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0' },
  { table: 'urls', column: 'capture', sql: `ALTER TABLE urls ADD COLUMN capture INTEGER NOT NULL DEFAULT 1;\n${CAPTURE_ONE}` },
  { table: 'urls', column: 'score', sql: 'ALTER TABLE urls ADD COLUMN score REAL' },
  { table: 'url_captures', column: 'requested_at', sql: 'ALTER TABLE url_captures ADD COLUMN requested_at TEXT' },
  { table: 'url_captures', column: 'headers_ms', sql: 'ALTER TABLE url_captures ADD COLUMN headers_ms INTEGER' },
  { table: 'url_captures', column: 'duration_ms', sql: 'ALTER TABLE url_captures ADD COLUMN duration_ms INTEGER' },
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
  -- the capture in which the URL was last met; rows of earlier captures not met again are not part of this one
  capture INTEGER NOT NULL DEFAULT 1,
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

-- Pages a person marked as no near-duplicate (a false flag): later runs judge them as originals.
CREATE TABLE IF NOT EXISTS focus_distinct (
  url_id INTEGER PRIMARY KEY
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

-- One harvest of the job: the first crawl is capture 1, each re-crawl adds the next.
CREATE TABLE IF NOT EXISTS captures (
  id INTEGER PRIMARY KEY,
  started_at TEXT NOT NULL,
  finished_at TEXT,
  state TEXT NOT NULL,
  duration_ms INTEGER NOT NULL DEFAULT 0
);

-- What each URL fetched in a capture answered, and how that compares with its previous capture:
-- new, changed (visible text), markup-only, unchanged (payload digest), not-modified (304),
-- removed (404/410, or no longer reached), failed.
CREATE TABLE IF NOT EXISTS url_captures (
  url_id INTEGER NOT NULL,
  capture_id INTEGER NOT NULL,
  outcome TEXT NOT NULL,
  http_status INTEGER,
  content_type TEXT,
  bytes INTEGER,
  -- sha256:<base32> of the payload as received (the WARC's), and of the page's whitespace-normalised visible text
  payload_digest TEXT,
  text_digest TEXT,
  local_path TEXT,
  -- the validators sent back as If-None-Match / If-Modified-Since in the next capture
  etag TEXT,
  last_modified TEXT,
  -- the response record holding this capture's payload (for a revisit, its original's)
  warc_file TEXT,
  warc_offset INTEGER,
  warc_length INTEGER,
  content_encoding TEXT,
  fetched_at TEXT NOT NULL,
  -- the answering request: when it was sent, ms until its headers and until its last byte
  requested_at TEXT,
  headers_ms INTEGER,
  duration_ms INTEGER,
  PRIMARY KEY (url_id, capture_id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS url_captures_by_capture ON url_captures (capture_id, outcome);
`;
