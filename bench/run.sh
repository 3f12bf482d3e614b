#!/usr/bin/env bash
# npm run bench: mirrors the shared benchmark site with Harvest and with the peers (GNU wget,
# HTTrack) in one run, on the same site, server and caps, and prints the shared report's tables.
# Scenario so far: the 5,000-page site at 0 ms latency with compression (CPU efficiency).
#
#   PEERS ["wget httrack-tuned"]  PAGES [5000]  CAP [180] s per run  PORT [8765]
#   WORK [/tmp/harvest-bench/run-<timestamp>]  KEEP_MIRRORS [0]
set -uo pipefail
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(dirname "$HERE")
BENCH=${HARVEST_BENCH_DIR:-$(cd "$ROOT/../shared/bench" && pwd)}
PEERS=${PEERS-"wget httrack-tuned"}
PAGES=${PAGES:-5000}
CAP=${CAP:-180}
PORT=${PORT:-8765}
KEEP_MIRRORS=${KEEP_MIRRORS:-0}
WORK=${WORK:-/tmp/harvest-bench/run-$(date +%Y%m%d-%H%M%S)}
ORIGIN="http://127.0.0.1:$PORT"
mkdir -p "$WORK/runs" "$HERE/results"
log() { printf '[bench %s] %s\n' "$(date +%T)" "$*" >&2; }
http_get() { node -e 'fetch(process.argv[1]).then(r=>r.text()).then(t=>process.stdout.write(t)).catch(e=>{console.error(String(e));process.exit(1)})' "$1"; }
http_post() { node -e 'fetch(process.argv[1],{method:"POST"}).then(()=>{}).catch(e=>{console.error(String(e));process.exit(1)})' "$1"; }

[ -f "$ROOT/dist/electron/cli/harvest.js" ] || (cd "$ROOT" && npm run build >&2) || exit 1
command -v /usr/bin/time >/dev/null || { apt-get update -qq && apt-get install -y -qq time >&2; }

if [ -n "$PEERS" ]; then
  log "peers ($PEERS) through $BENCH/run-peers.sh"
  PEERS="$PEERS" LATENCIES=0 PAGES="$PAGES" CAP="$CAP" PORT="$PORT" WORK="$WORK" RESULTS="$WORK" \
    KEEP_MIRRORS="$KEEP_MIRRORS" bash "$BENCH/run-peers.sh" > "$WORK/peers.log" 2>&1 || log "run-peers.sh failed: see $WORK/peers.log"
fi

site="$WORK/site-$PAGES"
[ -f "$site/manifest.json" ] || node "$BENCH/sitegen.mjs" --pages "$PAGES" --out "$site" --origin "$ORIGIN" --force >&2 || exit 1
node "$BENCH/serve.mjs" --dir "$site" --port "$PORT" --compress --quiet > "$WORK/serve-harvest.log" 2>&1 &
SERVER=$!
trap 'kill $SERVER 2>/dev/null' EXIT
for _ in $(seq 100); do http_get "$ORIGIN/__stats" >/dev/null 2>&1 && break; sleep 0.1; done

run="$WORK/runs/L0-harvest"
rm -rf "$run"; mkdir -p "$run"
CMD=(node "$ROOT/dist/electron/cli/harvest.js" crawl "$ORIGIN/" --out "$run/archive" --quiet)
http_post "$ORIGIN/__stats/reset"
log "L0 harvest: ${CMD[*]}"
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
start=$(date +%s.%N)
/usr/bin/time -v -o "$run/time.txt" timeout -k 10 "$CAP" "${CMD[@]}" < /dev/null > "$run/stdout.txt" 2>&1
rc=$?
end=$(date +%s.%N)
load_after=$(cut -d' ' -f1-3 /proc/loadavg)
http_get "$ORIGIN/__stats?detail=1" > "$run/stats.json"
node "$BENCH/linkcheck.mjs" --mirror "$run/archive/mirror" --manifest "$site/manifest.json" --json "$run/linkcheck.json" > "$run/linkcheck.txt" 2>&1
du_bytes=$(du -sb "$run/archive" | cut -f1)
node -e '
  const [run, L, pages, rc, start, end, cap, du, cmd, lb, la, tck] = process.argv.slice(1);
  require("fs").writeFileSync(run + "/meta.json", JSON.stringify({ peer: "harvest", latencyMs: +L, pages: +pages, rc: +rc, wallSecondsShell: +(end - start).toFixed(2), capSeconds: +cap, duBytes: +du, command: cmd, loadavgBefore: lb, loadavgAfter: la, clkTck: +tck }, null, 1));
' "$run" 0 "$PAGES" "$rc" "$start" "$end" "$CAP" "$du_bytes" "${CMD[*]}" "$load_before" "$load_after" "$(getconf CLK_TCK)"
log "L0 harvest: rc=$rc, $(sed -n 2p "$run/linkcheck.txt")"
[ "$KEEP_MIRRORS" = 0 ] && rm -rf "$run/archive/mirror"

node "$BENCH/report.mjs" "$WORK" > "$WORK/results.md"
node "$BENCH/report.mjs" --json "$WORK" > "$WORK/results.json"
stamp=$(date -u +%Y%m%dT%H%M%SZ)
cp "$WORK/results.json" "$HERE/results/$stamp.json"
cat "$WORK/results.md"
log "results: $WORK/results.md, $HERE/results/$stamp.json"
