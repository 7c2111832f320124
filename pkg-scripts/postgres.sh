#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests and benchmarks: Debian's
# binaries (pkg-scripts/setup.sh installs them), a temporary data directory,
# loopback only, run as an unprivileged user (PostgreSQL refuses to run as
# root: as root the cluster runs as Debian's `postgres` user, otherwise as
# the caller), a random password.
#
#   source pkg-scripts/postgres.sh
#   pg_start [extra postgres -c options…]   # exports SENTIENCE_TEST_DATABASE_URL
#   …
#   pg_stop                                  # also run on exit (trap)
#
# or, from a shell:
#   bash pkg-scripts/postgres.sh start       # prints `DIR URL`; leaves it running
#   bash pkg-scripts/postgres.sh stop DIR
#
# Nothing here touches a system cluster: the cluster listens on 127.0.0.1 on
# a free port, its socket directory is its own, and it is deleted on stop.

pg_bindir() {
  if [ -n "${PG_BIN:-}" ]; then echo "$PG_BIN"; return; fi
  local d
  d="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1)"
  if [ -z "$d" ] && command -v pg_config >/dev/null 2>&1; then d="$(pg_config --bindir)"; fi
  echo "$d"
}

# Runs a command as the cluster's user.
pg_as_user() {
  if [ "$(id -u)" = 0 ]; then
    # From /: the caller's directory (a checkout under /root in CI) may be
    # closed to that user, and initdb/pg_ctl would warn or fail on it.
    (cd / && runuser -u "${PG_USER:-postgres}" -- "$@")
  else
    "$@"
  fi
}

pg_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Starts a cluster; extra arguments are `-c name=value` server options.
# Sets PG_DIR and exports SENTIENCE_TEST_DATABASE_URL.
pg_start() {
  local bin
  bin="$(pg_bindir)"
  if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "PostgreSQL binaries not found (install Debian's postgresql: bash pkg-scripts/setup.sh)" >&2
    return 1
  fi
  if [ "$(id -u)" = 0 ] && ! id "${PG_USER:-postgres}" >/dev/null 2>&1; then
    echo "user ${PG_USER:-postgres} does not exist (bash pkg-scripts/setup.sh creates it)" >&2
    return 1
  fi
  PG_DIR="$(mktemp -d /tmp/sentience-pg.XXXXXX)"
  chmod 700 "$PG_DIR"
  [ "$(id -u)" = 0 ] && chown "${PG_USER:-postgres}:" "$PG_DIR"
  local pw
  pw="$(python3 -c 'import secrets; print(secrets.token_hex(16))')"
  echo "$pw" >"$PG_DIR/pw"
  [ "$(id -u)" = 0 ] && chown "${PG_USER:-postgres}:" "$PG_DIR/pw"
  pg_as_user "$bin/initdb" -D "$PG_DIR/data" -U sentience --pwfile="$PG_DIR/pw" \
    --auth=scram-sha-256 -E UTF8 --locale=C.UTF-8 >"$PG_DIR/initdb.log" 2>&1 || {
    cat "$PG_DIR/initdb.log" >&2
    return 1
  }
  rm -f "$PG_DIR/pw"
  local port tries=0
  while :; do
    port="$(pg_free_port)"
    if pg_as_user "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -c unix_socket_directories=$PG_DIR -c max_connections=300 $*" \
      start >/dev/null; then
      break
    fi
    tries=$((tries + 1))
    if [ "$tries" -ge 5 ]; then
      cat "$PG_DIR/server.log" >&2
      return 1
    fi
  done
  export SENTIENCE_TEST_DATABASE_URL="postgres://sentience:$pw@127.0.0.1:$port/postgres"
  PG_URL="$SENTIENCE_TEST_DATABASE_URL"
  trap pg_stop EXIT
}

pg_stop() {
  local dir="${1:-${PG_DIR:-}}"
  [ -n "$dir" ] && [ -d "$dir/data" ] || return 0
  pg_as_user "$(pg_bindir)/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null 2>&1 || true
  rm -rf "$dir"
  [ "$dir" = "${PG_DIR:-}" ] && PG_DIR=""
  return 0
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  set -euo pipefail
  case "${1:-}" in
    start)
      shift
      pg_start "$@"
      trap - EXIT
      echo "$PG_DIR $PG_URL"
      ;;
    stop)
      pg_stop "${2:?usage: postgres.sh stop DIR}"
      ;;
    *)
      echo "usage: bash pkg-scripts/postgres.sh start [-c name=value…] | stop DIR" >&2
      exit 2
      ;;
  esac
fi
