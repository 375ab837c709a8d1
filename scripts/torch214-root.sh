#!/usr/bin/env bash
# The Debian sid root with PyTorch 2.14: scripts/torch-root.sh 2.14 CMD... (see there).
# Kept because scripts/test.sh, CI and the docs call it by this name.
exec "$(dirname "${BASH_SOURCE[0]}")/torch-root.sh" 2.14 "$@"
