#!/usr/bin/env bash
# The project's two commands: `bash run.sh video` and `bash run.sh test`; each sets everything up first.
set -euo pipefail
cd "$(dirname "$0")"

case "${1:-}" in
  video)
    shift
    bash scripts/setup.sh
    exec .venv/bin/python render.py --quality high "$@"
    ;;
  test)
    shift
    bash scripts/setup.sh
    .venv/bin/ruff check .
    .venv/bin/mypy
    .venv/bin/mkdocs build --strict --quiet   # docs/ into site/ (ignored by git); a warning fails
    # the lecture kit's scripts: type-checked, then linted
    .venv/node_modules/.bin/tsc --noEmit -p tsconfig.json
    .venv/node_modules/.bin/eslint --max-warnings 0 publish
    exec .venv/bin/python -m pytest "$@"
    ;;
  *)
    echo "usage: bash run.sh video [render.py flags] | bash run.sh test [pytest flags]" >&2
    exit 2
    ;;
esac
