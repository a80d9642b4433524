#!/bin/sh
# Unpacks Debian 12's MPFR, GMP and cmocka headers and libraries into .carry/
# (git-ignored) for a GPU host that has the runtimes but not the headers.
# tools/gpu-check.sh on that host points the compiler at .carry/root.
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp"
apt-get download libmpfr-dev libgmp-dev libcmocka-dev libcmocka0 libmpfr6 libgmp10 >/dev/null 2>&1
rm -rf "$root/.carry/root"
mkdir -p "$root/.carry/root"
for f in *.deb; do
    dpkg -x "$f" "$root/.carry/root"
done
echo "unpacked into $root/.carry/root"
