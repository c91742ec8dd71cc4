#!/usr/bin/env bash
# Make sure Debian's headless-capable Chromium is installed (the HTML report's browser test needs it).
# Idempotent: does nothing when a chromium binary is already on PATH. No browser download from
# anywhere but the distribution's own package archive (no Playwright/Puppeteer fetches).
set -euo pipefail

find_chromium() {
  for candidate in "${BATON_CHROMIUM:-}" chromium chromium-browser; do
    if [ -n "$candidate" ] && command -v "$candidate" >/dev/null 2>&1; then
      command -v "$candidate"
      return 0
    fi
  done
  return 1
}

if path="$(find_chromium)"; then
  echo "chromium present: $path ($("$path" --version 2>/dev/null || echo 'version unknown'))"
  exit 0
fi

if ! command -v apt-get >/dev/null 2>&1; then
  echo "chromium is missing and apt-get is not available; install Chromium and set BATON_CHROMIUM" >&2
  exit 1
fi

SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null 2>&1; then SUDO="sudo"; else
    echo "chromium is missing and installing it needs root (or sudo)" >&2
    exit 1
  fi
fi

echo "installing chromium from the Debian archive..."
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
path="$(find_chromium)"
echo "chromium installed: $path ($("$path" --version 2>/dev/null || echo 'version unknown'))"
