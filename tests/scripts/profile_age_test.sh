#!/usr/bin/env bash
# scripts/lib/profile_age.sh: warn_stale_profile says when a build's profile was trained at
# an older commit than the C++ sources as they are (committed or not), and says nothing
# when they do not differ (a profile stamped at HEAD, a later commit that changed no
# source, a build never trained).
#   usage: profile_age_test.sh PROFILE_AGE_SH
set -uo pipefail
lib=$(realpath "$1")
# shellcheck source=../expect.sh
source "$(dirname "$0")/../expect.sh"
repo=$(mktemp -d)
trap 'rm -rf "$repo"' EXIT
cd "$repo" || exit 1
git init -q . && git config user.email t@t && git config user.name t
mkdir build && echo 'int a;' > a.cc && git add a.cc && git commit -qm one
trained=$(git rev-parse HEAD)
check() { bash -c ". '$lib'; warn_stale_profile build; echo done"; }
expect "never trained: silent" 0 "^done$" -- check
git rev-parse HEAD > build/.profile-trained
expect "trained at HEAD: silent" 0 "^done$" -- check
echo notes > README.md && git add README.md && git commit -qm docs
expect "only docs changed: silent" 0 "^done$" -- check
echo 'int b;' >> a.cc
expect "a source edited, not committed: the note" 0 "^note: build was profiled at ${trained:0:12}; the sources have changed since" -- check
git commit -qam two
expect "a source changed: the note" 0 "^note: build was profiled at ${trained:0:12}; the sources have changed since" -- check
echo 0123456789abcdef > build/.profile-trained
expect "an unknown commit: the note" 0 "^note: build was profiled at 0123456789ab" -- check
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
