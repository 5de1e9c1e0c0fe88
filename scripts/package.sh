#!/usr/bin/env bash
# Builds every package this machine can build into dist/, from an existing release
# build directory (it builds no second tree: CI passes its own build/ci):
#   gpuquota-console_<v>_amd64.deb        CPack DEB, dependencies by dpkg-shlibdeps
#   gpuquota-console-<v>-Linux.tar.gz     CPack TGZ
#   gpuquota-console-<v>-x86_64.AppImage  CPack External -> packaging/linux/build-appimage.sh
#   gpuquota-console-<v>-x64-standin.msi  packaging/windows/*.wxs built by wixl from stand-in
#                                         files (the real MSI needs Windows: .github/workflows/windows.yml)
#   gpuquota_jupyterlab-<v>-py3-none-any.whl  the prebuilt JupyterLab extension (scripts/jupyterlab.sh;
#                                         Node.js builds it, `pip install` needs none)
#
#   scripts/package.sh [BUILD_DIR]   (default: build/ci if configured, else build/release)
# Then scripts/check-packages.sh dist checks each of them.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

build="${1:-}"
if [ -z "$build" ]; then
  if [ -f build/ci/CMakeCache.txt ]; then build=build/ci; else build=build/release; fi
fi
if [ ! -f "$build/CMakeCache.txt" ]; then
  echo "package: $build is not a configured build directory (cmake --preset release first)" >&2
  exit 2
fi
build="$(cd "$build" && pwd)"
type="$(sed -n 's/^CMAKE_BUILD_TYPE:[A-Z]*=//p' "$build/CMakeCache.txt")"
# GQ_PACKAGE_ANY_BUILD=1 packages a debug tree too (to try the recipes; binaries are stripped).
case "$type" in
  Release|RelWithDebInfo|MinSizeRel) ;;
  *) if [ "${GQ_PACKAGE_ANY_BUILD:-}" != 1 ]; then
       echo "package: $build is a '$type' build; packages are made from release builds" >&2; exit 2
     fi ;;
esac
version="$(sed -n 's/^CMAKE_PROJECT_VERSION:[A-Z]*=//p' "$build/CMakeCache.txt")"
dist="$root/dist"
rm -rf "$dist"
mkdir -p "$dist"

# Up to date (a no-op after the CI build); the runtime is small C.
targets=(gpuquota-console gpuquota gpuquota-testcluster gq-test-exporter gq-appimage-runtime)
if grep -q '^gpuquota-controller:' <(cmake --build "$build" --target help 2>/dev/null | sed 's/: .*/:/'); then
  targets+=(gpuquota-controller)
fi
cmake --build "$build" --target "${targets[@]}"

t0=$SECONDS
(cd "$build" && cpack -G "DEB;TGZ" -B "$dist/.cpack" >"$dist/.cpack-deb.log") \
  || { cat "$dist/.cpack-deb.log" >&2; exit 1; }
(cd "$build" && cpack -G External -B "$dist/.cpack" >"$dist/.cpack-appimage.log") \
  || { cat "$dist/.cpack-appimage.log" >&2; exit 1; }
mv "$dist/.cpack"/*.deb "$dist/.cpack"/*.tar.gz "$dist/.cpack"/*.AppImage "$dist/"
rm -rf "$dist/.cpack"

packaging/windows/build-msi-standin.sh "$dist/gpuquota-console-$version-x64-standin.msi" "$version" 2>&1 \
  | grep -v 'GLib-GIO' || true
[ -f "$dist/gpuquota-console-$version-x64-standin.msi" ] || { echo "package: wixl made no MSI" >&2; exit 1; }

# Built beside the suites (test-all.sh): the test venv keeps the wheel its suite runs.
scripts/jupyterlab.sh --no-install "$dist" >"$dist/.jupyterlab.log" 2>&1 \
  || { cat "$dist/.jupyterlab.log" >&2; exit 1; }
rm -f "$dist/.jupyterlab.log"

echo "package: dist/ in $((SECONDS - t0)) s"
(cd "$dist" && ls -l --block-size=K -- *)
