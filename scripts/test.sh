#!/usr/bin/env bash
# The test command of the README: installs what the tests need beyond the package
# (the Label Studio server, in its own venv), then runs lint, types and the test suite.
set -euo pipefail
cd "$(dirname "$0")/.."

# Label Studio pins openai<2 and pyarrow<25, so it lives in .venv-labelstudio, not here.
discobench review server install

ruff check builder tests benchmarks seeds/kb
ruff format --check builder tests benchmarks seeds/kb
mypy

python -m pytest -q "$@"
