#!/usr/bin/env bash
# Prove the README's set-up on a bare Debian 12: run `bash run.sh test` in a fresh bookworm root.
#
#   sudo bash scripts/fresh_debian.sh                     # the whole suite
#   sudo bash scripts/fresh_debian.sh -x -q tests/test_lesson.py   # or any pytest arguments
#
# The root is `debootstrap --variant=minbase` plus python3, git and ca-certificates, nothing
# else; the repository is cloned into it at this checkout's commit (committed work only) and
# the test command runs in a chroot, so every other package must come from scripts/setup.sh.
# Needs root, debootstrap (installed here if missing) and about 3 GB under FRESH_DEBIAN_DIR
# (default /var/tmp); the root is deleted afterwards unless KEEP_ROOT=1 (scripts/fresh_root.sh
# makes it, and says what else it takes). Not run in CI: it downloads TeX Live and Chromium,
# which takes a while.
FRESH_NAME=fresh_debian
source "$(dirname "$0")/fresh_root.sh"

fresh_root
fresh_say "bash run.sh test $*"
status=0
in_root bash run.sh test "$@" || status=$?
fresh_say "exit $status after $(fresh_since)"
exit "$status"
