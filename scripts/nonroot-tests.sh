#!/usr/bin/env bash
# Runs the tests of what fgraph may write and read (tests/writes.rs, tests/hostile_corpus.rs)
# as an unprivileged user (uid/gid 65534), as issue 21 asks: as root, permission checks
# (read-only files, devices) are not what a user's run meets. CI runs as root, so `.ci/run`
# calls this after `cargo test`. The test binaries and the fgraph binary are copied with
# tests/hostile/ to a fresh folder that user can read, and the tests find them there through
# FGRAPH_TEST_ROOT and FGRAPH_TEST_BIN (tests/common/mod.rs). Run by a non-root user, the
# tests simply run as that user.
set -euo pipefail
cd "$(dirname "$0")/.."

tests=(writes hostile_corpus)
bins=()
for t in "${tests[@]}"; do
  b=$(cargo test --test "$t" --no-run 2>&1 | grep -o "target/debug/deps/$t-[0-9a-f]*" | tail -1)
  [ -n "$b" ] || { echo "nonroot-tests: no test binary for $t" >&2; exit 1; }
  bins+=("$b")
done
cargo build --quiet

if [ "$(id -u)" -ne 0 ]; then
  for b in "${bins[@]}"; do "$b"; done
  exit 0
fi
if ! command -v setpriv >/dev/null; then
  echo "nonroot-tests: setpriv (util-linux) is required to drop root" >&2
  exit 1
fi

stage=$(mktemp -d /tmp/fgraph-nonroot-XXXXXX)
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/tests" "$stage/bin" "$stage/tmp"
cp -r tests/hostile "$stage/tests/"
cp target/debug/fgraph "$stage/bin/"
for b in "${bins[@]}"; do cp "$b" "$stage/bin/"; done
chmod -R a+rX "$stage"
chown 65534:65534 "$stage/tmp"

for b in "${bins[@]}"; do
  name=$(basename "$b")
  echo "nonroot-tests: $name as uid 65534"
  setpriv --reuid=65534 --regid=65534 --clear-groups \
    env -i PATH="$PATH" HOME="$stage/tmp" TMPDIR="$stage/tmp" \
    FGRAPH_TEST_ROOT="$stage" FGRAPH_TEST_BIN="$stage/bin/fgraph" \
    bash -c 'cd "$FGRAPH_TEST_ROOT" && [ "$(id -u)" = 65534 ] && exec "$0"' "$stage/bin/$name"
done
