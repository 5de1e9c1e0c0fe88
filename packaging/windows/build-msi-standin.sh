#!/usr/bin/env bash
# Builds the MSI from stand-in files with msitools' wixl (Linux, CI): the same .wxs
# the Windows workflow packs with WiX's candle/light, and a DeployFiles fragment
# harvested by wixl-heat from a tree shaped like windeployqt's output.
#
#   packaging/windows/build-msi-standin.sh OUTPUT.msi VERSION
set -euo pipefail
out="$1" version="$2"
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/gq-msi.XXXXXX")"
trap 'rm -rf "$work"' EXIT
deploy="$work/deploy"
# What windeployqt puts beside our executables (names as Qt 6.4 on MSVC makes them).
for f in gpuquota-console.exe gpuquota.exe kubectl-gpuquota.exe gpuquota-testcluster.exe \
         Qt6Core.dll Qt6Gui.dll Qt6Widgets.dll Qt6Network.dll Qt6Sql.dll Qt6Charts.dll Qt6Svg.dll \
         Qt6OpenGL.dll Qt6OpenGLWidgets.dll qt6keychain.dll yaml-cpp.dll libcurl.dll \
         libssl-3-x64.dll libcrypto-3-x64.dll sqlite3.dll libpq.dll \
         platforms/qwindows.dll styles/qwindowsvistastyle.dll sqldrivers/qsqlite.dll sqldrivers/qsqlpsql.dll \
         tls/qschannelbackend.dll tls/qopensslbackend.dll imageformats/qsvg.dll iconengines/qsvgicon.dll \
         translations/qtbase_zh_CN.qm; do
  mkdir -p "$deploy/$(dirname "$f")"
  printf 'stand-in for %s\n' "$f" >"$deploy/$f"
done
(cd "$work" && find deploy -type f | sort | wixl-heat -p deploy/ --component-group DeployFiles \
   --var var.DeployDir --directory-ref INSTALLDIR --win64 >"$work/deploy-files.wxs")
# wixl resolves File/@Source relative to the .wxs, so both sit in the work dir.
cp "$here/gpuquota-console.wxs" "$work/"
case "$out" in /*) ;; *) out="$PWD/$out" ;; esac
(cd "$work" && wixl -a x64 -D Version="$version" -D DeployDir=deploy -D Win64=yes -o "$out" \
   gpuquota-console.wxs deploy-files.wxs)
echo "build-msi-standin: $out"
