#!/usr/bin/env bash
# Checks what scripts/package.sh put into dist/ (CI runs both):
#   .deb      unpacked into an empty root with dpkg -x; every binary's --version from
#             there; the console's --self-test; lintian with no errors; desktop file
#             and AppStream metadata valid; dependencies filled in by dpkg-shlibdeps
#   .tar.gz   unpacked; --version of each binary
#   AppImage  runtime options; extract-and-run with the system's Qt out of reach and
#             a loader log proving no Qt library or plugin came from the system;
#             through FUSE where /dev/fuse works; start-up figures vs the build tree
#   MSI       tables, components, shortcut and the fixed upgrade code (msiinfo)
#   .whl      the JupyterLab extension: pip installs it into a fresh venv with no Node.js
#             on the PATH, and the prebuilt labextension and the server's config land
#
#   scripts/check-packages.sh [DIST_DIR] [BUILD_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
dist="$(cd "${1:-dist}" && pwd)"
build="${2:-}"
if [ -z "$build" ]; then
  if [ -f build/ci/CMakeCache.txt ]; then build=build/ci; else build=build/release; fi
fi
work="$(mktemp -d "${TMPDIR:-/tmp}/gq-pkgcheck.XXXXXX")"
trap 'rm -rf "$work"' EXIT
failures=0
ok() { echo "  ok    $*"; }
bad() { echo "  FAIL  $*"; failures=$((failures + 1)); }
check() { # check DESCRIPTION COMMAND...: runs COMMAND, output to the log
  local what="$1"; shift
  if "$@" >"$work/last.log" 2>&1; then ok "$what"; else bad "$what"; sed 's/^/        /' "$work/last.log" | tail -20; fi
}
one() { # the one file in dist matching a glob
  local f; f="$(ls "$dist"/$1 2>/dev/null | head -1)"
  [ -n "$f" ] || { echo "check-packages: no $1 in $dist" >&2; exit 1; }
  echo "$f"
}
bins=(gpuquota-console gpuquota kubectl-gpuquota gpuquota-testcluster)

echo "== .deb"
deb="$(one '*.deb')"
root="$work/debroot"
dpkg -x "$deb" "$root"
[ -x "$root/usr/bin/gpuquota-controller" ] && bins+=(gpuquota-controller)
for b in "${bins[@]}"; do check "$b --version (from dpkg -x)" env -u DISPLAY "$root/usr/bin/$b" --version; done
[ -x "$root/usr/bin/gpuquota-controller" ] || echo "  note  no gpuquota-controller in this build (app/controller not on this branch)"
check "gpuquota-console --self-test (from dpkg -x, system Qt)" env QT_QPA_PLATFORM=offscreen "$root/usr/bin/gpuquota-console" --self-test
depends="$(dpkg-deb -f "$deb" Depends)"
case "$depends" in *libqt6widgets6*libc6*|*libc6*libqt6widgets6*) ok "Depends from dpkg-shlibdeps: $depends" ;;
  *) bad "Depends lacks shlibdeps entries: $depends" ;; esac
check "desktop-file-validate" desktop-file-validate "$root/usr/share/applications/io.gpuquota.Console.desktop"
check "appstreamcli validate" appstreamcli validate --no-net "$root/usr/share/metainfo/io.gpuquota.Console.metainfo.xml"
# Errors fail; so does any tag about manual pages (every program has one, gzip -9n);
# other warnings are printed for the record.
if lintian --fail-on error --suppress-tags-from-file /dev/null "$deb" >"$work/lintian.log" 2>&1; then
  ok "lintian: no errors ($(grep -c '^W:' "$work/lintian.log" || true) warnings)"
else
  bad "lintian errors"; grep '^E:' "$work/lintian.log" | sed 's/^/        /'
fi
grep '^[WI]:' "$work/lintian.log" | sed 's/^/        /' || true
if grep -qE '^[EW]: .*(manual-page|manpage)' "$work/lintian.log"; then
  bad "lintian: manual page tags"; grep -E '^[EW]: .*(manual-page|manpage)' "$work/lintian.log" | sed 's/^/        /'
else
  ok "lintian: no manual page tags ($(dpkg-deb -c "$deb" | grep -c '/man/man1/.*\.1\.gz') pages)"
fi
# A CMake list instead of one string shows as lines starting with ';'.
check "Description is one text (no line starts with ';')" sh -c "! dpkg-deb -f '$deb' Description | grep -q '^ *;'"

echo "== .tar.gz"
tgz="$(one '*.tar.gz')"
mkdir "$work/tgz"
tar -xzf "$tgz" -C "$work/tgz"
tbin="$(dirname "$(find "$work/tgz" -name gpuquota -type f | head -1)")"
for b in "${bins[@]}"; do check "$b --version (from the tarball)" "$tbin/$b" --version; done

echo "== AppImage"
app="$(one '*.AppImage')"
check "ELF with type-2 magic AI\\x02 at offset 8" sh -c "[ \"\$(od -An -tx1 -j8 -N3 '$app' | tr -d ' ')\" = 414902 ]"
offset="$("$app" --appimage-offset)"
check "--appimage-offset names the squashfs (magic hsqs at $offset)" \
  sh -c "[ \"\$(dd if='$app' bs=1 skip=$offset count=4 status=none)\" = hsqs ]"
mkdir "$work/extract"
check "--appimage-extract" sh -c "cd '$work/extract' && '$app' --appimage-extract >/dev/null && [ -x squashfs-root/AppRun ]"

# The system's Qt out of reach, without mounts or a chroot: no LD_LIBRARY_PATH, Qt's
# plugin path pointed at an empty directory (QT_PLUGIN_PATH is searched first), no
# display. The bundle's RPATHs and qt.conf must find everything; the loader's own log
# (LD_DEBUG=libs: "calling init: PATH" for every object loaded, plugins included)
# then shows where each object came from, and no Qt library, Qt plugin or libpq may
# come from outside the bundle.
mkdir -p "$work/tmp" "$work/noplugins"
hidden=(env -u DISPLAY -u WAYLAND_DISPLAY -u QT_QPA_PLATFORM_PLUGIN_PATH LD_LIBRARY_PATH= QT_PLUGIN_PATH="$work/noplugins"
        QT_QPA_PLATFORM=offscreen TMPDIR="$work/tmp")
check "AppImage --version (extract-and-run, system Qt hidden)" "${hidden[@]}" APPIMAGE_EXTRACT_AND_RUN=1 "$app" --version
if "${hidden[@]}" LD_DEBUG=libs LD_DEBUG_OUTPUT="$work/ld" "$app" --appimage-extract-and-run --self-test >"$work/selftest.log" 2>&1; then
  ok "AppImage --self-test (extract-and-run, system Qt hidden)"; sed 's/^/        /' "$work/selftest.log"
else
  bad "AppImage --self-test"; sed 's/^/        /' "$work/selftest.log"
fi
grep -h 'calling init: ' "$work"/ld.* | sed 's/.*calling init: //' | sort -u >"$work/loaded.txt"
from_bundle="$(grep -c "^$work/tmp/appimage_extracted_" "$work/loaded.txt" || true)"
leaks="$(grep -v "^$work/tmp/appimage_extracted_" "$work/loaded.txt" | grep -E 'libQt6|/qt6/plugins/|libpq|libqsql' || true)"
if [ -z "$leaks" ] && [ "$from_bundle" -gt 20 ]; then
  ok "loader log: $from_bundle objects from the bundle, host only: $(grep -v "^$work/tmp/appimage_extracted_" "$work/loaded.txt" | xargs -n1 basename | tr '\n' ' ')"
else
  bad "objects loaded from the system instead of the bundle: $leaks"
fi
check "extract-and-run removed its directory" sh -c "! ls -d '$work/tmp'/appimage_extracted_* 2>/dev/null"
if [ -w /dev/fuse ] && "${hidden[@]}" "$app" --version >"$work/fuse.log" 2>&1 && ! grep -q 'FUSE is not available' "$work/fuse.log"; then
  ok "AppImage --version through FUSE"
else
  echo "  note  FUSE mount not usable here; the runtime fell back to extracting (checked above)"
fi

echo "== MSI (wixl, stand-in files)"
msi="$(one '*.msi')"
# Whole outputs first: `msiinfo ... | grep -q` would end msiinfo early (pipefail).
tables="$(msiinfo tables "$msi" 2>/dev/null | tr -d '\r' | tr '\n' ' ')"
property="$(msiinfo export "$msi" Property 2>/dev/null | tr -d '\r')"
upgrades="$(msiinfo export "$msi" Upgrade 2>/dev/null | tr -d '\r')"
componentrows="$(msiinfo export "$msi" Component 2>/dev/null | tr -d '\r')"
shortcuts="$(msiinfo export "$msi" Shortcut 2>/dev/null | tr -d '\r')"
missing=""
for t in Directory Component File Feature FeatureComponents Shortcut Upgrade Media Registry; do
  case " $tables " in *" $t "*) ;; *) missing+=" $t" ;; esac
done
[ -z "$missing" ] && ok "tables: $tables" || bad "MSI lacks tables:$missing"
upgrade="$(awk -F'\t' '$1 == "UpgradeCode" {print $2}' <<<"$property")"
[ "$upgrade" = "{77475A6C-38B0-47DE-9F15-D706C6488648}" ] && ok "UpgradeCode $upgrade (fixed)" || bad "UpgradeCode is '$upgrade'"
grep -q WIX_UPGRADE_DETECTED <<<"$upgrades" && grep -q WIX_DOWNGRADE_DETECTED <<<"$upgrades" \
  && ok "MajorUpgrade rows (upgrade and downgrade detection)" || bad "no MajorUpgrade rows"
[ "$(awk -F'\t' '$1 == "ALLUSERS" {print $2}' <<<"$property")" = 1 ] && ok "per-machine (ALLUSERS=1)" || bad "not per-machine"
components="$(tail -n +4 <<<"$componentrows" | wc -l)"
[ "$components" -gt 20 ] && ok "$components components (one per harvested file + the shortcut)" || bad "only $components components"
grep -q 'gpuquota-console.exe' <<<"$shortcuts" && ok "Start-menu shortcut to gpuquota-console.exe" || bad "no shortcut"

echo "== figures"
echo "  AppImage size: $(du -h "$app" | cut -f1) ($(stat -c %s "$app") bytes), squashfs zstd"
tree="$build/bin/gpuquota-console"
if [ -x "$tree" ]; then
  # Wall-clock of --self-test, 3 runs each, page cache warm (dropping it would slow
  # every other job on a shared machine); the AppImage's include extracting itself.
  ms() { local s e; s=$(date +%s%N); "$@" >/dev/null 2>&1; e=$(date +%s%N); echo $(((e - s) / 1000000)); }
  for mode in tree extract fuse; do
    runs=()
    for i in 1 2 3; do
      case "$mode" in
        tree) runs+=("$(ms env QT_QPA_PLATFORM=offscreen "$tree" --self-test)") ;;
        extract) runs+=("$(ms "${hidden[@]}" APPIMAGE_EXTRACT_AND_RUN=1 "$app" --self-test)") ;;
        fuse) [ -w /dev/fuse ] || continue 2; runs+=("$(ms "${hidden[@]}" "$app" --self-test)") ;;
      esac
    done
    echo "  --self-test wall ms, $mode: ${runs[*]}"
  done
fi

echo "== JupyterLab extension wheel"
whl="$(one 'gpuquota_jupyterlab-*-py3-none-any.whl')"
python3 -m venv "$work/wheelvenv"
# PATH holds the venv alone: no node, no npm.
check "pip install $(basename "$whl") without Node.js" env -i HOME="$work" PATH="$work/wheelvenv/bin" \
  "$work/wheelvenv/bin/python" -m pip install -q --disable-pip-version-check --no-deps "$whl"
ext="$work/wheelvenv/share/jupyter/labextensions/gpuquota-jupyterlab"
check "prebuilt labextension installed (package.json, remoteEntry)" \
  bash -c "[ -f '$ext/package.json' ] && ls '$ext'/static/remoteEntry.*.js"
check "server extension enabled (jupyter_server_config.d)" \
  test -f "$work/wheelvenv/etc/jupyter/jupyter_server_config.d/gpuquota_jupyterlab.json"

if [ "$failures" -ne 0 ]; then
  echo "check-packages: $failures check(s) failed"
  exit 1
fi
echo "check-packages: every package checked"
