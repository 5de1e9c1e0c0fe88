#!/usr/bin/env bash
# Installs every Debian 12 package GPU Quota Console needs to build, test and run.
# Idempotent: apt-get skips what is already installed, so running it twice is safe.
set -euo pipefail

packages=(
  # toolchain
  build-essential cmake ninja-build ccache mold pkg-config git clang libclang-rt-14-dev clang-format
  # Qt 6 (Widgets, Charts, SQL drivers, translations tools)
  qt6-base-dev qt6-base-dev-tools qt6-charts-dev qt6-svg-dev libqt6opengl6-dev libxkbcommon-dev
  qt6-tools-dev qt6-tools-dev-tools qt6-l10n-tools qt6-translations-l10n
  libqt6sql6-sqlite libqt6sql6-psql libgl-dev
  libsqlite3-dev
  qtkeychain-qt6-dev
  # libraries
  libyaml-cpp-dev libcurl4-openssl-dev libssl-dev libcpp-httplib-dev
  # tests and benchmarks
  libbenchmark-dev libgtest-dev postgresql postgresql-client prometheus openssl
  xvfb xauth imagemagick fonts-noto-cjk fonts-dejavu-core poppler-utils
  # packages (scripts/package.sh): .deb/.tar.gz checks, the AppImage runtime (static FUSE,
  # squashfs and compression archives) and its recipe, the MSI built with wixl
  appstream desktop-file-utils lintian squashfs-tools patchelf zstd file dpkg-dev
  libsquashfuse-dev libfuse3-dev fuse3 libzstd-dev liblz4-dev liblzma-dev liblzo2-dev zlib1g-dev
  qt6-wayland wixl msitools
  # the self-service page in a real browser (tst_selfservice)
  chromium
  # the JupyterLab extension (scripts/jupyterlab.sh builds it with Node.js and npm; its
  # venv holds JupyterLab and Playwright from PyPI; tests/jupyter)
  nodejs python3-venv
  # alerts: a real SMTP server for the delivery suites
  python3-aiosmtpd
  # the official Kubernetes Python client, a real client of the test cluster (tst_testcluster_pyclient)
  python3-kubernetes
)

SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

# npm: inside a NodeSource nodejs, Debian's own package beside Debian's nodejs.
if ! command -v npm >/dev/null; then
  missing+=(npm)
fi

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
# The Prometheus package starts a system service on install; we run our own instance in tests.
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
