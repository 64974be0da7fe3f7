"""discobench-builder: build clarification-aware deep-search benchmarks and evaluate agents."""

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("discobench-builder")
except PackageNotFoundError:  # running from a source tree without install
    __version__ = "0.0.0+local"

__all__ = ["__version__"]
