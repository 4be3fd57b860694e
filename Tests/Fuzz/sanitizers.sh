#!/usr/bin/env bash
# Runs the whole test suite under AddressSanitizer (with LeakSanitizer) and under ThreadSanitizer,
# each in its own build folder. Usage: Tests/Fuzz/sanitizers.sh [address|thread]...
set -euo pipefail
cd "$(dirname "$0")/../.."
for sanitizer in "${@:-address thread}"; do
    for one in $sanitizer; do
        echo "== swift test --sanitize=$one"
        swift test --disable-xctest --sanitize="$one" --build-path ".build/sanitize-$one" 2>&1 | grep -E "Test run|✘|ERROR: |WARNING: ThreadSanitizer|SUMMARY" || true
    done
done
