#!/bin/sh
# Install every Debian package roofline needs, from nothing: a minimal Debian 12
# (debootstrap --variant=minbase) where only apt-get can be assumed.  Run as root,
# or as a user with sudo.  `make deps` and .ci/run call this; the README lists the
# same packages.  Packages already installed are skipped.
#
#   build-essential        make, gcc, libc headers (the build itself)
#   pkg-config             finds Lua and cJSON's flags (Makefile)
#   liblua5.4-dev          spec and scenario language
#   libcjson-dev           JSON reports and import-hf
#   libcmocka-dev          the unit tests (make test)
#   libopenblas-dev        the reference engine's matmuls: cblas.h, and (through its
#                          libopenblas0 dependency) libopenblas.so.0, which the CPU
#                          backend dlopen()s when first used
#   zlib1g-dev             compressed inputs
#   gnuplot-nox            figures (roofline.plot, make figures)
#   valgrind               make test-valgrind
#   clang libclang-rt-14-dev  make fuzz (libFuzzer's runtime is only a Recommends of clang)
#   git                    the commit id in bench reports; cloning
set -eu
PKGS="build-essential pkg-config liblua5.4-dev libcjson-dev libcmocka-dev libopenblas-dev
zlib1g-dev gnuplot-nox valgrind clang libclang-rt-14-dev git"
missing=""
for p in $PKGS; do
    dpkg-query -W -f '${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
if [ -z "$missing" ]; then
    echo "deps: all present"
    exit 0
fi
as_root=""
if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "deps: run as root (missing:$missing)" >&2; exit 1; }
    as_root=sudo
fi
echo "deps: installing$missing"
$as_root apt-get update -qq
# shellcheck disable=SC2086
$as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
