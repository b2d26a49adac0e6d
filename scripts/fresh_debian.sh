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
# (default /var/tmp); the root is deleted afterwards unless KEEP_ROOT=1. Not run in CI: it
# downloads TeX Live and Chromium, which takes a while.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
started=$SECONDS
trap 'echo "fresh_debian: failed at line $LINENO" >&2' ERR

if [ "$(id -u)" -ne 0 ]; then
  echo "fresh_debian: needs root for debootstrap and chroot; run it with sudo" >&2
  exit 2
fi
command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null

# The Debian mirror apt already uses here (deb822 or one-line sources), unless MIRROR is given.
mirror=${MIRROR:-$(
  { grep -hoE 'https?://[^ ]*/debian/?( |$)' /etc/apt/sources.list /etc/apt/sources.list.d/* \
    2>/dev/null || true; } | head -n1 | tr -d ' '
)}
mirror=${mirror:-http://deb.debian.org/debian}

root=$(mktemp -d "${FRESH_DEBIAN_DIR:-/var/tmp}/fresh-debian.XXXXXX")
mounts=()
cleanup() {
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[i]}" 2>/dev/null || true; done
  # --one-file-system: should an unmount have failed, never descend into the host's /dev or /sys
  if [ "${KEEP_ROOT:-0}" = 1 ]; then echo "fresh_debian: root kept at $root"; else
    rm -rf --one-file-system "$root"
  fi
}
trap cleanup EXIT

echo "fresh_debian: debootstrap bookworm from $mirror into $root"
debootstrap --variant=minbase --include=python3,git,ca-certificates bookworm "$root" "$mirror" \
  >"$root.debootstrap.log" 2>&1 || { tail -n 20 "$root.debootstrap.log" >&2; exit 1; }
rm -f "$root.debootstrap.log"

# Behind a TLS-inspecting proxy the host trusts extra CAs; the root needs them to reach PyPI.
# This is the network's trust, not a package: nothing the project needs comes this way.
if compgen -G "/usr/local/share/ca-certificates/*.crt" >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
  chroot "$root" update-ca-certificates >/dev/null
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"

commit=$(git -C "$repo" rev-parse HEAD)
git clone -q "$repo" "$root/srv/attention"
git -C "$root/srv/attention" checkout -q "$commit"
echo "fresh_debian: cloned $commit"

for fs in proc sys dev dev/pts dev/shm; do
  [ -d "/$fs" ] || continue
  mount --bind "/$fs" "$root/$fs"
  mounts+=("$root/$fs")
done

echo "fresh_debian: bash run.sh test $*"
status=0
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
  PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  PIP_CERT=/etc/ssl/certs/ca-certificates.crt \
  bash -c 'cd /srv/attention && bash run.sh test "$@"' run.sh "$@" || status=$?
echo "fresh_debian: exit $status after $(((SECONDS - started) / 60)) min $(((SECONDS - started) % 60)) s"
exit "$status"
