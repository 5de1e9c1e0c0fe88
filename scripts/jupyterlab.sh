#!/usr/bin/env bash
# Builds the JupyterLab extension (jupyterlab/) into a wheel a notebook server installs
# with pip and no Node.js:
#   scripts/jupyterlab.sh [--no-install] [OUT_DIR]   (default: build/jupyterlab/dist)
# -> OUT_DIR/gpuquota_jupyterlab-<version>-py3-none-any.whl, <version> the CMake project's.
# Node.js and npm build the frontend (npm ci from jupyterlab/package-lock.json); a venv in
# build/jupyterlab/venv (jupyterlab/requirements-build.txt, pip's wheel cache) gives
# `jupyter labextension build` and hatchling. The source is copied to
# build/jupyterlab/src first: node_modules and built files never land in the tree. The
# wheel is then installed into the venv, where tests/jupyter runs JupyterLab with it
# (not with --no-install: scripts/package.sh, while the suite may be running).
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"
install=1
if [ "${1:-}" = --no-install ]; then install=0; shift; fi
out="${1:-$root/build/jupyterlab/dist}"
mkdir -p "$out"
out="$(cd "$out" && pwd)"
work="$root/build/jupyterlab"
venv="$work/venv"
version="$(sed -n 's/^project([A-Za-z]* VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)"
[ -n "$version" ] || { echo "jupyterlab: no project version in CMakeLists.txt" >&2; exit 1; }
for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "jupyterlab: $tool is needed to build (scripts/install-deps.sh)" >&2; exit 1; }
done

# The venv, again only when the requirements changed.
stamp="$venv/.requirements"
if ! cmp -s jupyterlab/requirements-build.txt "$stamp" 2>/dev/null; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q --disable-pip-version-check -r jupyterlab/requirements-build.txt
  cp jupyterlab/requirements-build.txt "$stamp"
fi

# The source, staged beside its node_modules (kept between runs: npm ci only when the
# lockfile changed).
src="$work/src"
mkdir -p "$src"
find "$src" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
tar -C jupyterlab --exclude=./node_modules --exclude=./lib --exclude=./tsconfig.tsbuildinfo \
  --exclude=./gpuquota_jupyterlab/labextension -cf - . | tar -C "$src" -xf -
sed -i "s/^  \"version\": \"[^\"]*\"/  \"version\": \"$version\"/" "$src/package.json"
printf '__version__ = "%s"\n' "$version" >"$src/gpuquota_jupyterlab/_version.py"
cd "$src"
if ! cmp -s package-lock.json node_modules/.package-lock.stamp 2>/dev/null; then
  npm ci --no-audit --no-fund --loglevel=error
  cp package-lock.json node_modules/.package-lock.stamp
fi
rm -rf lib tsconfig.tsbuildinfo gpuquota_jupyterlab/labextension
node_modules/.bin/tsc
PATH="$venv/bin:$PATH" jupyter labextension build . >"$work/labextension-build.log" 2>&1 \
  || { cat "$work/labextension-build.log" >&2; exit 1; }
rm -f "$out"/gpuquota_jupyterlab-*.whl
"$venv/bin/pip" wheel -q --disable-pip-version-check --no-deps --no-build-isolation -w "$out" . >/dev/null
wheel="$out/gpuquota_jupyterlab-$version-py3-none-any.whl"
[ -f "$wheel" ] || { echo "jupyterlab: no $wheel" >&2; exit 1; }
if [ "$install" = 1 ]; then
  "$venv/bin/pip" install -q --disable-pip-version-check --no-deps --force-reinstall "$wheel"
fi
echo "jupyterlab: $wheel"
