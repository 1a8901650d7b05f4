"""WebSockets only from the site's own pages: the Origin must be the site's scheme, host and port.

A socket carries the person's cookies whichever page opens it, so a page elsewhere (another port
of the same machine, the plain-HTTP twin of the site) must not be able to play in their name.
"""

import pytest
from channels.testing import WebsocketCommunicator

from whistclub.origins import SameOriginWebSockets


async def accepting(scope, receive, send):
    """A bare ASGI application that accepts every socket it is given."""
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    while (await receive())["type"] != "websocket.disconnect":
        pass


app = SameOriginWebSockets(accepting)


async def opens(origin, host="127.0.0.1:8000", scheme=None, forwarded_proto=None,
                application=app, path="/ws/test/"):
    headers = [(b"host", host.encode())] if host is not None else []
    if origin is not None:
        headers.append((b"origin", origin.encode()))
    if forwarded_proto:
        headers.append((b"x-forwarded-proto", forwarded_proto.encode()))
    communicator = WebsocketCommunicator(application, path, headers=headers)
    if scheme:
        communicator.scope["scheme"] = scheme
    connected, _ = await communicator.connect()
    if connected:
        await communicator.disconnect()
    return connected


async def test_the_sites_own_origin_is_accepted():
    assert await opens("http://127.0.0.1:8000")
    assert await opens("http://localhost:8000", host="localhost:8000")


@pytest.mark.parametrize("origin", [
    "http://127.0.0.1:9999",      # another port of the same machine
    "https://127.0.0.1",          # another scheme and port
    "https://127.0.0.1:8000",     # another scheme
    "http://127.0.0.1",           # the default port is another port
    "http://localhost:8000",      # another host name, even one in ALLOWED_HOSTS
    "http://evil.example",
    "null",
    "",
])
async def test_other_origins_are_refused(origin):
    assert not await opens(origin)


async def test_a_socket_without_an_origin_or_a_host_is_refused():
    assert not await opens(None)
    assert not await opens("http://127.0.0.1:8000", host=None)


async def test_a_host_outside_allowed_hosts_is_refused_even_from_its_own_page():
    # DNS rebinding: a foreign name pointed at this machine; its page is "same origin" with it.
    assert not await opens("http://rebound.example:8000", host="rebound.example:8000")


async def test_behind_a_tls_proxy_the_forwarded_scheme_counts(settings):
    settings.ALLOWED_HOSTS = ["whist.example.org"]
    assert await opens("https://whist.example.org", host="whist.example.org",
                       forwarded_proto="https")
    assert await opens("https://whist.example.org:443", host="whist.example.org",
                       forwarded_proto="https")
    assert not await opens("http://whist.example.org", host="whist.example.org",
                           forwarded_proto="https")
    assert not await opens("https://whist.example.org", host="whist.example.org",
                           forwarded_proto="http")
    assert not await opens("https://whist.example.org", host="whist.example.org")


async def test_a_wss_socket_expects_an_https_page(settings):
    settings.ALLOWED_HOSTS = ["whist.example.org"]
    assert await opens("https://whist.example.org", host="whist.example.org", scheme="wss")
    assert not await opens("http://whist.example.org", host="whist.example.org", scheme="wss")


async def test_csrf_trusted_origins_are_accepted_and_only_those(settings):
    settings.ALLOWED_HOSTS = ["whist.example.org", "127.0.0.1"]
    settings.CSRF_TRUSTED_ORIGINS = ["https://whist.example.org", "https://*.clubs.example.org"]
    # a proxy that passes its own upstream host: the trusted list still decides
    assert await opens("https://whist.example.org", host="127.0.0.1:8001")
    assert await opens("https://ghent.clubs.example.org", host="127.0.0.1:8001")
    assert not await opens("http://whist.example.org", host="127.0.0.1:8001")
    assert not await opens("https://whist.example.org:8443", host="127.0.0.1:8001")
    assert not await opens("https://elsewhere.example.org", host="127.0.0.1:8001")


@pytest.mark.django_db(transaction=True)
async def test_the_site_refuses_a_lobby_socket_from_another_port():
    from whistclub.asgi import application

    assert not await opens("http://127.0.0.1:9999", application=application, path="/ws/lobby/")
    assert not await opens("https://127.0.0.1", application=application, path="/ws/lobby/")
    assert await opens("http://127.0.0.1:8000", application=application, path="/ws/lobby/")


@pytest.mark.slow
@pytest.mark.django_db(transaction=True)
async def test_a_real_server_checks_the_origin_of_its_sockets(tmp_path):
    import websockets

    from tests.live_servers import DaphneServer, ServerDatabase, free_port

    database = ServerDatabase.migrated(tmp_path)
    server = DaphneServer(database, tmp_path / "daphne.log").start()
    try:
        url = f"{server.ws_url}/ws/lobby/"
        socket = await websockets.connect(url, additional_headers={"Origin": server.url})
        await socket.close()
        for origin in (f"http://127.0.0.1:{free_port()}", "https://127.0.0.1",
                       f"https://127.0.0.1:{server.port}"):
            with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
                await websockets.connect(url, additional_headers={"Origin": origin})
            assert refused.value.response.status_code == 403
    finally:
        server.stop()
        database.drop()
