#!/usr/bin/env bash
# Install what is missing, build incrementally, and run a scenario in virtual time. rocetb
# run's last line says where the report and plots are (report: results/.../report.html).
#   ./scripts/run.sh                       runs scenarios/default.toml
#   ./scripts/run.sh SCENARIO [ARGS...]    runs another scenario; ARGS go to `rocetb run`
#                                          (--out DIR, --seed N, --set KEY=VALUE, --cc NAME)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
./scripts/build.sh >/dev/null
scenario="${1:-scenarios/default.toml}"
[ $# -gt 0 ] && shift
exec ./build/apps/rocetb run "$scenario" "$@"
