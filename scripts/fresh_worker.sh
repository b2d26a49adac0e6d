#!/usr/bin/env bash
# A Dask worker for `render.py --scheduler` in a fresh Debian 12 root set up by scripts/setup.sh.
#
#   sudo bash scripts/fresh_worker.sh tcp://127.0.0.1:8786 [dask worker flags]
#
# Makes the root as scripts/fresh_debian.sh does (scripts/fresh_root.sh: debootstrap minbase
# plus python3, git and ca-certificates, this checkout's commit cloned into /srv/attention),
# runs `bash scripts/setup.sh` in it, then `.venv/bin/dask worker ADDRESS --nthreads 1 [flags]`
# in the chroot until the worker stops or this script is stopped (Ctrl-C, SIGTERM); then every
# process left in the root is stopped, its mounts are undone and the root is deleted. A chroot
# shares this machine's network: tcp://127.0.0.1:PORT is a scheduler on this machine. What the
# worker is given to do is the caller's business (tests/test_fresh_worker.py renders on it).
#
# Making and setting up a root takes 4 to 10 minutes on a two-core machine. KEEP_ROOT=1 keeps it (its path is
# printed); FRESH_ROOT=PATH makes one at PATH the first time, keeps it, and reuses it after
# (brought to this checkout's commit, then setup.sh, which is quick when nothing changed).
FRESH_NAME=fresh_worker
source "$(dirname "$0")/fresh_root.sh"

if [ $# -lt 1 ] || [[ "$1" == -* ]]; then
  echo "usage: sudo bash scripts/fresh_worker.sh tcp://HOST:PORT [dask worker flags]" >&2
  exit 2
fi
address=$1
shift

fresh_root
started=$SECONDS
in_root bash scripts/setup.sh
fresh_say "set up in $(fresh_since "$started"); root ready after $(fresh_since)"
fresh_say "dask worker $address --nthreads 1 $*"
status=0
in_root .venv/bin/dask worker "$address" --nthreads 1 "$@" || status=$?
fresh_say "worker exited with $status after $(fresh_since)"
exit "$status"
