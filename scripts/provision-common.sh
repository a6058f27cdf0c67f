# Sourced by scripts/provision-n8n.sh and scripts/provision-queue.sh (after setting PROVISION_NAME):
# the cache folder outside the repository, the log line, one run at a time, the platform check.
CACHE="${BF_N8N_CACHE:-$HOME/.cache/n8n-nodes-business-finance}"

log() { printf '[%s %s] %s\n' "$PROVISION_NAME" "$(date -u +%H:%M:%S)" "$*"; }

# one_at_a_time LOCKFILE: concurrent runs (dev and e2e started together) must not install into the
# same folder at once, so a second run waits for the first.
one_at_a_time() {
	exec 9>"$1"
	command -v flock >/dev/null 2>&1 || return 0
	flock -n 9 || { log "another provisioning run holds $1; waiting for it"; flock 9; }
}

# linux_x64_or_exit MESSAGE: the npm-packaged binaries fit only Linux x64.
linux_x64_or_exit() {
	[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "$1" >&2; exit 1; }
}
