#!/usr/bin/env bash
# tests/jupyter/run.sh VENV test_jupyterlab.py: the suite with the venv's Python. Without
# the venv (scripts/jupyterlab.sh not run) it skips (exit 77), and fails under CI=true.
set -euo pipefail
venv="$1"
if [ ! -x "$venv/bin/jupyter-lab" ] || ! "$venv/bin/python" -c 'import gpuquota_jupyterlab' 2>/dev/null; then
  echo "tst_jupyterlab: no venv with JupyterLab and the extension in $venv (run scripts/jupyterlab.sh)" >&2
  if [ "${CI:-}" = true ]; then exit 1; fi
  exit 77
fi
exec "$venv/bin/python" "$2"
