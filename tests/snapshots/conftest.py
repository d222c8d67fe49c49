from tests.ui.conftest import make_services, memory_keyring, services  # noqa: F401
