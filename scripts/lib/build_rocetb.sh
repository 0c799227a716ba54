# Sourced by the benchmark scripts: build_rocetb BUILD_DIR brings BUILD_DIR/apps/rocetb up
# to date as users build it (scripts/build.sh for the default build/, ninja for a build
# directory that exists), or calls the sourcing script's die() saying what to do; and says
# when its profile is older than the sources.
# shellcheck source=profile_age.sh
. "$(dirname "${BASH_SOURCE[0]}")/profile_age.sh"
build_rocetb() {
  local build=$1
  if [ -f "$build/build.ninja" ]; then
    ninja -C "$build" apps/rocetb >/dev/null
  elif [ "$build" = build ]; then
    ./scripts/build.sh >/dev/null
  else
    die "$build has no build.ninja: run 'meson setup $build' first, or leave ROCETB_BUILD unset"
  fi
  [ -x "$build/apps/rocetb" ] || die "$build/apps/rocetb was not built"
  warn_stale_profile "$build"
}
