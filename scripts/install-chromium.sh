#!/usr/bin/env bash
# Installs Chromium for the editor test (test/editor), only when none is there.
# The test drives the system's Chromium with playwright-core (Playwright's own browser downloads
# are not reachable from these machines). On Debian and Ubuntu it comes from apt; elsewhere
# install Chromium or Chrome yourself and set BF_CHROMIUM to its binary.
set -euo pipefail

for candidate in "${BF_CHROMIUM:-}" /usr/bin/chromium /usr/bin/chromium-browser; do
	if [ -n "$candidate" ] && [ -x "$candidate" ]; then
		echo "[chromium] $candidate is there"
		exit 0
	fi
done

if ! command -v apt-get >/dev/null 2>&1; then
	echo "[chromium] no Chromium and no apt-get: install Chromium or Chrome and set BF_CHROMIUM" >&2
	exit 1
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then
	command -v sudo >/dev/null 2>&1 || { echo "[chromium] apt-get needs root (or sudo)" >&2; exit 1; }
	sudo="sudo"
fi
echo "[chromium] installing Debian's chromium package (apt-get)"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends chromium >/dev/null
echo "[chromium] installed: $(/usr/bin/chromium --version 2>/dev/null | tail -n 1)"
