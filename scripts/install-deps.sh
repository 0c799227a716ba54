#!/usr/bin/env bash
# Install, with apt-get, only the Debian 12 packages rocetb needs that are missing.
# Idempotent: a second run installs nothing and exits 0 quickly.
set -euo pipefail

packages=(
  build-essential pkg-config meson ninja-build
  dpdk dpdk-dev libdpdk-dev libibverbs-dev libboost-dev libfmt-dev
  libgtest-dev libgmock-dev libbenchmark-dev libcli11-dev libtomlplusplus-dev
  nlohmann-json3-dev libpcap-dev libisal-dev
  libsystemd-dev  # a static DPDK's link flags name -lsystemd (meson.build, dpdk_static_dep)
  libopenmpi-dev openmpi-bin  # virtual time across MPI ranks (lib/mpi)
  clang libclang-rt-14-dev libtsan2
  tshark python3-scapy python3-matplotlib
  chromium  # renders report.html headless in the plots test (tests/plots)
  iproute2 git
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi

# tshark asks whether non-root users may capture; answer "no" ahead of time so the
# install never stops on the question.
echo "wireshark-common wireshark-common/install-setuid boolean false" | "${sudo_cmd[@]}" debconf-set-selections
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
