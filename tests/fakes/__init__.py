"""Local fakes of external services (real HTTP servers on 127.0.0.1) for tests."""
