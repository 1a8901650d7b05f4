import pytest

from tests.live_servers import DaphneServer, ServerDatabase


@pytest.fixture
def server_database(tmp_path):
    database = ServerDatabase.migrated(tmp_path)
    yield database
    database.drop()


@pytest.fixture
def start_server(server_database, tmp_path):
    servers = []

    def start(**env):
        server = DaphneServer(server_database, tmp_path / f"daphne-{len(servers)}.log", **env)
        servers.append(server)
        return server.start()

    yield start
    for server in servers:
        server.stop()
