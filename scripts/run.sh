#!/usr/bin/env bash
# Install what is missing, build incrementally, and run a scenario in virtual time. rocetb
# run's last line says where the report and plots are (report: results/.../report.html).
#   ./scripts/run.sh                       runs scenarios/default.toml
#   ./scripts/run.sh SCENARIO [ARGS...]    runs another scenario; ARGS go to `rocetb run`
#                                          (--out DIR, --seed N, --set KEY=VALUE, --cc NAME)
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/install-deps.sh
# On a terminal the build shows its progress (ninja's one updating line, the first build's
# phases) on stderr; otherwise it is silent and the run's output is all there is.
if [ -t 2 ]; then
  ./scripts/build.sh tool >&2
else
  ./scripts/build.sh tool >/dev/null
fi
scenario="${1:-scenarios/default.toml}"
[ $# -gt 0 ] && shift
exec ./build/apps/rocetb run "$scenario" "$@"
