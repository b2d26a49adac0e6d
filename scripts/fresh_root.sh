# A fresh Debian 12 root for scripts/fresh_debian.sh and scripts/fresh_worker.sh; sourced, not run.
#
#   FRESH_NAME=fresh_worker; source "$(dirname "$0")/fresh_root.sh"
#   fresh_root             # make the root, clone this checkout's commit into it, mount
#   in_root COMMAND...     # run COMMAND in the chroot, in /srv/attention, in a bare environment
#
# The root is `debootstrap --variant=minbase` plus python3, git and ca-certificates, nothing
# else; the repository is cloned into /srv/attention at this checkout's commit (committed work
# only), so every other package must come from scripts/setup.sh. Needs root, debootstrap
# (installed here if missing) and about 3 GB under FRESH_DEBIAN_DIR (default /var/tmp). MIRROR
# names the Debian mirror (default: the one apt uses here). On exit, also on failure, Ctrl-C or
# SIGTERM, every process still running in the root is stopped, its mounts are undone and it is
# deleted, unless KEEP_ROOT=1 (its path is printed) or it was named by FRESH_ROOT=PATH: a root
# made there the first time and reused after (brought to this commit; nothing else is redone).
# Exit 2: not root, or FRESH_ROOT is a folder this did not make; exit 3: the mirror cannot be
# reached.
set -eEuo pipefail
trap 'echo "$FRESH_NAME: failed at line $LINENO" >&2' ERR

FRESH_NAME=${FRESH_NAME:-fresh_root}
FRESH_REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
FRESH_STARTED=$SECONDS
FRESH_MARK=.fresh-root  # in a root this made, once debootstrap and the CAs are done
root=""
fresh_keep=${KEEP_ROOT:-0}
fresh_pids=()   # what this started in the background, stopped by id on exit

fresh_say() { echo "$FRESH_NAME: $*"; }
fresh_since() {
  local s=$((SECONDS - ${1:-$FRESH_STARTED}))
  echo "$((s / 60)) min $((s % 60)) s"
}

# Run a command in a session of its own, in the background, and wait for it: a trapped signal
# then stops the wait at once (bash runs traps only between commands), and the exit trap stops
# every process of the session. --log FILE: its output goes there.
fresh_wait() {
  local status=0
  if [ "$1" = --log ]; then
    setsid "${@:3}" >"$2" 2>&1 &
  else
    setsid "$@" &
  fi
  fresh_pids+=("$!")  # not a group leader, so setsid runs it as is: its id is the session's
  wait "$!" || status=$?
  unset 'fresh_pids[-1]'  # reaped, its session ended with it or is still ours below
  return "$status"
}

in_root() {
  fresh_wait chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
    bash -c 'cd /srv/attention && exec "$@"' in_root "$@"
}

# What this started and is still running, one id a line: the processes of the sessions it
# started (debootstrap's downloads included) and every process whose root is ours.
fresh_running() {
  local proc stat state session
  for proc in /proc/[0-9]*; do
    read -r stat 2>/dev/null <"$proc/stat" || continue
    read -r state _ _ session _ <<<"${stat##*) }"  # after the command's name, which may hold spaces
    [ "$state" != Z ] || continue
    if [[ " ${fresh_pids[*]} " == *" $session "* ]] \
      || { [ -n "$root" ] && [ "$proc/root" -ef "$root" ]; }; then
      echo "${proc#/proc/}"
    fi
  done
  return 0
}

fresh_cleanup() {
  local status=$? left
  set +e  # undo everything that can be undone, whatever fails
  trap - ERR INT TERM
  for _ in $(seq 40); do  # a Dask worker closes in a second or two; apt or dpkg may take longer
    left=$(fresh_running)
    [ -z "$left" ] && break
    # shellcheck disable=SC2086  # one id a word
    kill -TERM $left 2>/dev/null
    sleep 0.5
  done
  left=$(fresh_running)
  # shellcheck disable=SC2086
  [ -z "$left" ] || kill -KILL $left 2>/dev/null
  [ -n "$root" ] || exit "$status"
  # every mount under the root, deepest first: ours, a killed run's, debootstrap's own /proc
  awk -v under="$root/" 'index($2, under) == 1 { print $2 }' /proc/self/mounts | sort -r |
    while read -r mounted; do umount -l "$mounted"; done
  # --one-file-system: should an unmount have failed, never descend into the host's /dev or /sys
  if [ "$fresh_keep" = 1 ]; then
    fresh_say "root kept at $root"
  elif rm -rf --one-file-system "$root" "$root.debootstrap.log"; then
    fresh_say "root removed; $(fresh_since) in all"
  else
    fresh_say "could not remove all of $root" >&2
    [ "$status" -ne 0 ] || status=1
  fi
  exit "$status"
}

fresh_root() {
  if [ "$(id -u)" -ne 0 ]; then
    fresh_say "needs root for debootstrap and chroot; run it with sudo" >&2
    exit 2
  fi
  trap fresh_cleanup EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM

  if [ -n "${FRESH_ROOT:-}" ]; then
    root=$(realpath -m "$FRESH_ROOT")
    fresh_keep=1
    mkdir -p "$root"
    if [ ! -e "$root/$FRESH_MARK" ] && [ -n "$(ls -A "$root")" ]; then
      fresh_say "FRESH_ROOT=$root is not empty and was not made by scripts/fresh_root.sh" >&2
      root=""
      exit 2
    fi
  else
    root=$(mktemp -d "${FRESH_DEBIAN_DIR:-/var/tmp}/fresh-debian.XXXXXX")
    chmod 755 "$root"  # it is /: mktemp's 700 shuts out apt's _apt user and every other
  fi
  fresh_say "root $root"

  if [ -e "$root/$FRESH_MARK" ]; then
    fresh_say "reusing the root made $(cat "$root/$FRESH_MARK")"
  else
    _fresh_debootstrap
  fi
  cp /etc/resolv.conf "$root/etc/resolv.conf"

  local commit clone=$root/srv/attention
  commit=$(git -C "$FRESH_REPO" rev-parse HEAD)
  if [ -d "$clone/.git" ]; then  # a reused root: this commit, and nothing but the commit
    git -C "$clone" fetch -q "$FRESH_REPO" "$commit"
  else
    git clone -q "$FRESH_REPO" "$clone"
  fi
  git -C "$clone" checkout -q -f "$commit"
  git -C "$clone" clean -q -f -d  # untracked files would change the source digest; .venv/ stays
  fresh_say "cloned $commit"

  local fs
  for fs in proc sys dev dev/pts dev/shm; do
    [ -d "/$fs" ] || continue
    # a run stopped by SIGKILL leaves its mounts: reuse them (the exit trap unmounts them all)
    mountpoint -q "$root/$fs" || mount --bind "/$fs" "$root/$fs"
  done
}

_fresh_install_debootstrap() {
  command -v debootstrap >/dev/null && return 0
  apt-get install -y -qq debootstrap >/dev/null 2>&1 && return 0
  apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq debootstrap >/dev/null 2>&1 \
    && return 0
  fresh_say "cannot install debootstrap: apt cannot reach its mirror" >&2
  exit 3
}

_fresh_debootstrap() {
  _fresh_install_debootstrap
  # The Debian mirror apt already uses here (deb822 or one-line sources), unless MIRROR is given.
  local mirror log=$root.debootstrap.log started=$SECONDS
  mirror=${MIRROR:-$(
    { grep -hoE 'https?://[^ ]*/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* \
      2>/dev/null || true; } | head -n1 | tr -d ' '
  )}
  mirror=${mirror:-http://deb.debian.org/debian}
  fresh_say "debootstrap bookworm from $mirror"
  if ! fresh_wait --log "$log" debootstrap --variant=minbase \
    --include=python3,git,ca-certificates bookworm "$root" "$mirror"; then
    tail -n 20 "$log" >&2
    if grep -qE "Failed getting release file|Couldn't download" "$log"; then
      fresh_say "cannot reach the Debian mirror $mirror (set MIRROR to another)" >&2
      exit 3
    fi
    exit 1
  fi
  rm -f "$log"

  # Behind a TLS-inspecting proxy the host trusts extra CAs; the root needs them to reach PyPI.
  # This is the network's trust, not a package: nothing the project needs comes this way.
  if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
    cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
    chroot "$root" update-ca-certificates >/dev/null
  fi
  date -u +%Y-%m-%dT%H:%M:%SZ >"$root/$FRESH_MARK"
  fresh_say "root made in $(fresh_since "$started")"
}
