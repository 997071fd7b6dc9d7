# Sourced by .ci/run (and usable by hand): start and stop a throwaway
# PostgreSQL cluster for the test suite. Exports LIGRETTO_TEST_POSTGRES_URL.
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

pg_test_cluster_start() {
  local user=postgres
  id "$user" >/dev/null 2>&1 || useradd --system --no-create-home "$user"
  PG_TEST_DIR=$(mktemp -d /tmp/ligretto-pg.XXXXXX)
  chown "$user" "$PG_TEST_DIR"
  PG_TEST_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  local run=(runuser -u "$user" --)
  [ "$(id -u)" -eq 0 ] || run=()
  "${run[@]}" "$PG_BIN/initdb" -D "$PG_TEST_DIR/data" -U ligretto --auth=trust -E UTF8 >/dev/null
  "${run[@]}" "$PG_BIN/pg_ctl" -D "$PG_TEST_DIR/data" -l "$PG_TEST_DIR/log" -w \
    -o "-h 127.0.0.1 -p $PG_TEST_PORT -k $PG_TEST_DIR -F" start >/dev/null
  "${run[@]}" "$PG_BIN/createdb" -h 127.0.0.1 -p "$PG_TEST_PORT" -U ligretto ligretto_test
  export PG_TEST_DIR PG_TEST_PORT
  export LIGRETTO_TEST_POSTGRES_URL="postgresql+psycopg://ligretto@127.0.0.1:$PG_TEST_PORT/ligretto_test"
  echo "PostgreSQL test cluster on port $PG_TEST_PORT"
}

pg_test_cluster_stop() {
  [ -n "${PG_TEST_DIR:-}" ] || return 0
  local run=(runuser -u postgres --)
  [ "$(id -u)" -eq 0 ] || run=()
  "${run[@]}" "$PG_BIN/pg_ctl" -D "$PG_TEST_DIR/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$PG_TEST_DIR"
}
