#!/usr/bin/env bash
# Set up everything the project needs, idempotently: system packages, .venv/, the project.
#
# Quick when nothing is missing: apt is only called for packages dpkg does not list,
# and pip only runs when pyproject.toml changed since the last install.
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(
  # manim's drawing: cairo and pango, built against by pycairo and manimpango
  pkg-config libcairo2-dev libpango1.0-dev
  # encoding, probing and joining clips
  ffmpeg
  # LaTeX for formulas: manim's template needs standalone.cls (latex-extra) and dvisvgm
  texlive-latex-base texlive-latex-extra texlive-latex-recommended
  texlive-fonts-recommended texlive-lang-english dvisvgm cm-super-minimal
  # the on-screen sans-serif, with DejaVu as fallback for other scripts
  fonts-inter fonts-dejavu-core
  # narrates in any language it knows (--voice espeak, the Greek lesson)
  espeak-ng
  # prints the handout as PDF; the tests drive it (playwright) to load the deck and the page
  chromium
)

missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
if ((${#missing[@]})); then
  echo "setup: installing system packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

python=${PYTHON:-python3.11}
if ! command -v "$python" >/dev/null; then
  echo "setup: $python not found; install Python 3.11 (apt-get install python3.11 python3.11-venv)" >&2
  exit 2
fi
if [ ! -x .venv/bin/python ]; then
  echo "setup: creating .venv/"
  "$python" -m venv .venv
fi

stamp=.venv/.project-installed
wanted=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "setup: installing the project into .venv/"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev,narration]'
  echo "$wanted" >"$stamp"
fi
