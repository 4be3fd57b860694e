#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer and under ThreadSanitizer, each in its own
# build folder. LeakSanitizer is off: the Mesa ICD (unloaded before exit, so unsymbolisable) and
# Foundation.Process leak a few bytes per process at exit; memory growth over long runs is
# measured separately (README, Reliability). Tests that cannot run under a sanitizer read
# LIQUIDLENS_SANITIZER. Usage: Tests/Fuzz/sanitizers.sh [address|thread]...
set -euo pipefail
cd "$(dirname "$0")/../.."
for sanitizer in "${@:-address thread}"; do
    for one in $sanitizer; do
        echo "== swift test --sanitize=$one"
        ASAN_OPTIONS=detect_leaks=0 LIQUIDLENS_SANITIZER="$one" \
            swift test --disable-xctest --sanitize="$one" --build-path ".build/sanitize-$one" 2>&1 | grep -E "Test run|✘|ERROR: |WARNING: ThreadSanitizer|SUMMARY" || true
    done
done
