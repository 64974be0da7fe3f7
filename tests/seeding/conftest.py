from tests.ambiguity.conftest import mini, mini_path

__all__ = ["mini", "mini_path"]
