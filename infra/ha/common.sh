# Shared settings of the infra/ha scripts (sourced, not run).
# HA_DIR: where the three PostgreSQL clusters and their logs live; HA_PORT: the monitor's port
# (the data nodes take the next two). The machine's own PostgreSQL keeps 5432.
HA_DIR=${HA_DIR:-${TMPDIR:-/tmp}/adjudicator-ha}
HA_PORT=${HA_PORT:-6100}
HA_DB=${HA_DB:-adjudicator}
HA_USER=${HA_USER:-postgres}
PG_BIN=${PG_BIN:-$(pg_config --bindir 2>/dev/null || echo /usr/lib/postgresql/15/bin)}
[ -x "$PG_BIN/pg_ctl" ] || PG_BIN=/usr/lib/postgresql/15/bin
export PATH="$PG_BIN:$PATH"
export PG_CONFIG="$PG_BIN/pg_config"
MONITOR_PORT=$HA_PORT
NODE_PORTS=("$((HA_PORT + 1))" "$((HA_PORT + 2))")
MONITOR_URI="postgres://autoctl_node@127.0.0.1:$MONITOR_PORT/pg_auto_failover?sslmode=disable"

# PostgreSQL refuses to run as root: as root, every pg_autoctl runs as $HA_USER.
as_pg() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u "$HA_USER" -- env PATH="$PATH" PG_CONFIG="$PG_CONFIG" HOME="$HA_DIR" "$@"
  else
    "$@"
  fi
}

node_dir() { echo "$HA_DIR/node$1"; }

# The service's URL: both data nodes, the one accepting writes chosen at each connect.
cluster_url() {
  echo "postgresql+psycopg://$HA_USER@127.0.0.1:${NODE_PORTS[0]},127.0.0.1:${NODE_PORTS[1]}/$HA_DB?target_session_attrs=read-write&connect_timeout=2"
}

# Whether process $1 runs (a zombie, killed but not yet reaped, does not: PID 1 of a container
# may reap late, and pg_autoctl and PostgreSQL take a zombie's pid file for a live process).
alive() { [ -n "$1" ] && ps -o stat= -p "$1" 2>/dev/null | grep -qv '^Z'; }

# Remove the pid files a killed node left behind (pg_autoctl's and the postmaster's).
clear_stale() {
  local dir=$1 file pid
  for file in "$dir/postmaster.pid" "${XDG_RUNTIME_DIR:-/tmp}/pg_autoctl$dir/pg_autoctl.pid" \
    "/tmp/pg_autoctl$dir/pg_autoctl.pid"; do
    [ -f "$file" ] || continue
    pid=$(head -1 "$file" 2>/dev/null || true)
    alive "$pid" || rm -f "$file"
  done
}
