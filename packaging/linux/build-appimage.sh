#!/usr/bin/env bash
# Builds a type-2 AppImage of the console from an installed tree and Debian's own
# Qt packages: no downloads, no appimagetool (Debian has none that works offline).
#
#   packaging/linux/build-appimage.sh --usr DIR --runtime FILE --output FILE.AppImage
#
# --usr is an installed /usr tree (bin/gpuquota-console, share/...), e.g. from
# `cmake --install build --prefix STAGE/usr --strip` or CPack's External staging;
# --runtime the gq-appimage-runtime built from packaging/linux/runtime.
#
# What goes in: our binaries, the Qt libraries and plugins they use (platforms xcb,
# wayland, offscreen; SQL drivers SQLite and PostgreSQL with libpq; TLS; SVG and
# image formats; input contexts), Qt's Chinese catalogue, every library those need
# except the host's base (glibc, libstdc++, libGL/EGL, X11/xcb, fontconfig, freetype
# and what must match them), each with a $ORIGIN-relative RPATH set by patchelf.
set -euo pipefail

usr="" runtime="" output=""
while [ $# -gt 0 ]; do
  case "$1" in
    --usr) usr="$2"; shift 2 ;;
    --runtime) runtime="$2"; shift 2 ;;
    --output) output="$2"; shift 2 ;;
    *) echo "build-appimage: unknown option $1" >&2; exit 2 ;;
  esac
done
for v in usr runtime output; do
  if [ -z "${!v}" ]; then echo "build-appimage: --$v is required" >&2; exit 2; fi
done
[ -x "$usr/bin/gpuquota-console" ] || { echo "build-appimage: no $usr/bin/gpuquota-console" >&2; exit 2; }
[ -f "$runtime" ] || { echo "build-appimage: no runtime at $runtime" >&2; exit 2; }
for tool in patchelf mksquashfs ldd file; do
  command -v "$tool" >/dev/null || { echo "build-appimage: $tool missing (scripts/install-deps.sh)" >&2; exit 2; }
done

here="$(cd "$(dirname "$0")" && pwd)"
src="$(cd "$here/../.." && pwd)"
appid="io.gpuquota.Console"
qtplugins="$(qtpaths6 --query QT_INSTALL_PLUGINS 2>/dev/null || echo /usr/lib/x86_64-linux-gnu/qt6/plugins)"
qttranslations="$(qtpaths6 --query QT_INSTALL_TRANSLATIONS 2>/dev/null || echo /usr/share/qt6/translations)"

work="$(mktemp -d "${TMPDIR:-/tmp}/gq-appdir.XXXXXX")"
trap 'rm -rf "$work"' EXIT
appdir="$work/AppDir"
mkdir -p "$appdir/usr"
cp -a "$usr/." "$appdir/usr/"

# Plugins the console loads (Qt looks for them under usr/plugins, see qt.conf below).
plugins=(
  platforms/libqxcb.so platforms/libqoffscreen.so platforms/libqminimal.so
  platforms/libqwayland-generic.so platforms/libqwayland-egl.so
  wayland-shell-integration wayland-decoration-client wayland-graphics-integration-client
  xcbglintegrations
  platforminputcontexts
  sqldrivers/libqsqlite.so sqldrivers/libqsqlpsql.so
  tls
  imageformats/libqsvg.so imageformats/libqjpeg.so imageformats/libqgif.so imageformats/libqico.so
  iconengines/libqsvgicon.so
)
for p in "${plugins[@]}"; do
  if [ ! -e "$qtplugins/$p" ]; then echo "build-appimage: Qt plugin $p missing (install-deps.sh)" >&2; exit 2; fi
  mkdir -p "$appdir/usr/plugins/$(dirname "$p")"
  cp -a "$qtplugins/$p" "$appdir/usr/plugins/$(dirname "$p")/"
done

mkdir -p "$appdir/usr/translations"
cp "$qttranslations"/qtbase_zh_CN.qm "$appdir/usr/translations/"

# The host's part: the C/C++ runtime, the GPU driver stack and the display and font
# libraries, which must match the machine's X/Wayland server and drivers.
host_lib() {
  case "$1" in
    ld-linux*|libc.so*|libm.so*|libdl.so*|libpthread.so*|librt.so*|libresolv.so*|libutil.so*|libanl.so*|libnsl.so*) return 0 ;;
    libstdc++.so*|libgcc_s.so*) return 0 ;;
    libGL.so*|libGLX*|libGLdispatch*|libOpenGL*|libEGL*|libGLES*|libgbm*|libdrm*) return 0 ;;
    libX11*|libXau*|libXdmcp*|libXext*|libXrender*|libXi.so*|libXfixes*|libxcb*|libxshmfence*) return 0 ;;
    libwayland-*) return 0 ;;
    libfontconfig*|libfreetype*|libharfbuzz*|libexpat*|libuuid*) return 0 ;;
  esac
  return 1
}

mkdir -p "$appdir/usr/lib"
elves() { find "$appdir/usr/bin" "$appdir/usr/plugins" "$appdir/usr/lib" -type f -print0 | xargs -0 file -L | awk -F: '/ELF/ {print $1}'; }
# ldd lists the whole closure of each file, so one pass over binaries and plugins
# finds every library; a second pass over what was copied is a cheap safety net.
for pass in 1 2; do
  while read -r elf; do
    ldd "$elf" 2>/dev/null | awk '/=> \// {print $3}' | while read -r lib; do
      name="$(basename "$lib")"
      if host_lib "$name" || [ -e "$appdir/usr/lib/$name" ]; then continue; fi
      cp -L "$lib" "$appdir/usr/lib/$name"
    done
  done < <(elves)
done
if [ -n "$(ldd "$appdir/usr/bin/gpuquota-console" | grep 'not found' || true)" ]; then
  echo "build-appimage: unresolved libraries:" >&2; ldd "$appdir/usr/bin/gpuquota-console" | grep 'not found' >&2; exit 1
fi

# $ORIGIN-relative search paths. DT_RPATH (--force-rpath), not RUNPATH: it is looked
# at before LD_LIBRARY_PATH, so a host's Qt on that variable cannot replace ours.
while read -r elf; do
  rel="$(realpath --relative-to="$(dirname "$elf")" "$appdir/usr/lib")"
  patchelf --force-rpath --set-rpath "\$ORIGIN/$rel" "$elf"
done < <(elves)
strip --strip-unneeded "$appdir/usr/lib/"*.so* 2>/dev/null || true

# Qt finds its plugins and catalogues in the bundle, not at Debian's compiled-in paths.
printf '[Paths]\nPrefix=..\nPlugins=plugins\nTranslations=translations\nLibraries=lib\n' >"$appdir/usr/bin/qt.conf"

cat >"$appdir/AppRun" <<'EOF'
#!/bin/sh
# The AppImage's entry point: the console, or the CLI when the AppImage is called
# (or symlinked) as gpuquota or kubectl-gpuquota.
here="$(dirname "$(readlink -f "$0")")"
case "$(basename "${ARGV0:-$0}")" in
  gpuquota|kubectl-gpuquota) exec "$here/usr/bin/gpuquota" "$@" ;;
esac
exec "$here/usr/bin/gpuquota-console" "$@"
EOF
chmod 0755 "$appdir/AppRun"
cp "$src/resources/linux/$appid.desktop" "$appdir/$appid.desktop"
cp "$src/resources/icons/$appid.svg" "$appdir/$appid.svg"
ln -s "$appid.svg" "$appdir/.DirIcon"

mksquashfs "$appdir" "$work/image.sqfs" -comp zstd -root-owned -noappend -no-progress -quiet >/dev/null
mkdir -p "$(dirname "$output")"
cat "$runtime" "$work/image.sqfs" >"$output.tmp"
chmod 0755 "$output.tmp"
mv "$output.tmp" "$output"
echo "build-appimage: $output ($(du -h "$output" | cut -f1), $(ls "$appdir/usr/lib" | wc -l) bundled libraries)"
