#!/usr/bin/env bash
# Try several processes on one machine: N `ligretto serve` processes on ports
# 8001…8000+N behind HAProxy on http://127.0.0.1:8000/ (docs/deploy.md), their
# /metrics on 18001…18000+N and, for all of them, http://127.0.0.1:18000/metrics.
#   LIGRETTO_DATABASE_URL=postgresql+psycopg://… deploy/run-local.sh 2
# Ctrl-C stops them all. Needs Debian's `haproxy` and a PostgreSQL database.
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-2}"
: "${LIGRETTO_DATABASE_URL:?set LIGRETTO_DATABASE_URL to a PostgreSQL database}"
export LIGRETTO_DATABASE_URL

workdir="$(mktemp -d)"
# The processes' metrics directory, shared: any of them reports them all.
export PROMETHEUS_MULTIPROC_DIR="$workdir/metrics"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$workdir"
}
trap cleanup EXIT INT TERM

servers=""
metrics=""
for i in $(seq 1 "$n"); do
  port=$((8000 + i))
  servers+="    server p$i 127.0.0.1:$port id $i"$'\n'
  metrics+="    server m$i 127.0.0.1:1$port id $i"$'\n'
  .venv/bin/ligretto serve --host 127.0.0.1 --port "$port" --trusted-proxy 127.0.0.1 \
    --metrics-address "127.0.0.1:1$port" &
  pids+=("$!")
done
# The shipped configuration with this run's server lines.
awk -v servers="$servers" -v metrics="$metrics" '
  /^    server p[0-9]+ / { if (!done) { printf "%s", servers; done = 1 } next }
  /^    server m[0-9]+ / { if (!mdone) { printf "%s", metrics; mdone = 1 } next }
  { print }
' deploy/haproxy.cfg >"$workdir/haproxy.cfg"
haproxy -c -q -f "$workdir/haproxy.cfg"
haproxy -db -f "$workdir/haproxy.cfg" &
pids+=("$!")
echo "ligretto: $n processes behind http://127.0.0.1:8000/, metrics at http://127.0.0.1:18000/metrics (Ctrl-C stops)"
wait -n
