#!/usr/bin/env bash
# The floors CI step: every runtime dependency at the lowest version pyproject.toml allows
# (scripts/check_floors.py writes the constraints file from the `>=` floors and installs
# agenttui under it into a fresh venv), the smoke checks against the fake server, then the
# fast unit tier (`-m "not slow"`) on that venv. Exit 0 only when all pass; the last line
# says "floors: ok (N dependencies at their floors)" or "floors: FAILED".
#
#     scripts/test_floors.sh [--head] [EXTRA PYTEST ARGS...]
#
# --head: test the last commit (a `git archive HEAD` copy) instead of the working tree, so
#         the package installed and the tests run are the same files even while the
#         checkout is being edited (the venv installs a copy, the tests are read later).
# FLOORS_VENV picks where the venv is made (made afresh each run; default under TMPDIR).
# Needs the package index for the install. About 13 minutes on a loaded 2-core machine
# (the install 3-4, the fast tier the rest).
set -euo pipefail
cd "$(dirname "$0")/.."
python=${PYTHON:-python3}
source_dir=$PWD
if [[ "${1:-}" == "--head" ]]; then
    shift
    source_dir=$(mktemp -d "${TMPDIR:-/tmp}/agenttui-floors-src.XXXXXX")
    trap 'rm -rf "$source_dir"' EXIT
    git archive HEAD | tar -x -C "$source_dir"
    echo "testing HEAD ($(git rev-parse --short HEAD)) from $source_dir"
fi
cd "$source_dir"
"$python" scripts/check_floors.py --venv "${FLOORS_VENV:-${TMPDIR:-/tmp}/agenttui-floors}" \
    --pytest tests/unit -m "not slow" -q -p no:cacheprovider "$@"
