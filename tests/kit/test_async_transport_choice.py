"""Which async transport a model uses (issue 15): aiohttp by default when ``modelport[aiohttp]`` is
installed, httpx on request or without the extra, an explicit transport or client first; the aiohttp
session never decompresses and closes with its loop; importing modelport never imports aiohttp."""

from __future__ import annotations

import asyncio
import gzip
import json
import subprocess
import sys
from typing import Any

import httpx
import pytest

import modelport
from tests.kit.test_transport_real_sockets import ANSWER, HAS_AIOHTTP, JSON, KEY, model, ok
from tests.loopback import Loopback, Reply


@pytest.mark.skipif(not HAS_AIOHTTP, reason="modelport[aiohttp] absent")
def test_async_calls_run_on_aiohttp_by_default_and_httpx_on_request() -> None:
    from modelport.http._aiohttp import AiohttpClient

    async def client_of(**options: Any) -> httpx.AsyncClient:
        m = modelport.get_model("google/g", api_key=KEY, **options)
        try:
            return await m.provider.http.async_client()
        finally:
            await m.aclose()

    async def main() -> None:
        default = await client_of()
        assert isinstance(default, AiohttpClient)
        assert type(await client_of(async_transport="httpx")) is httpx.AsyncClient
        assert isinstance(await client_of(async_transport="aiohttp"), AiohttpClient)
        # An explicit transport or client wins over the default.
        mock = httpx.MockTransport(lambda r: httpx.Response(200, json=ANSWER))
        assert (await client_of(transport=mock))._transport is mock
        async with httpx.AsyncClient() as mine:
            assert await client_of(async_http_client=mine) is mine

    asyncio.run(main())


@pytest.mark.skipif(not HAS_AIOHTTP, reason="modelport[aiohttp] absent")
def test_the_aiohttp_session_never_decompresses_and_is_closed_with_its_loop() -> None:
    body = gzip.compress(json.dumps(ANSWER).encode())
    with Loopback(lambda r: Reply(200, {**JSON, "content-encoding": "gzip"}, body)) as server:
        m = model(server, "aiohttp")

        async def main() -> Any:
            assert (await m.agenerate(prompt="hi")).text == "hello"
            client = await m.provider.http.async_client()
            session = client._transport.client  # type: ignore[attr-defined]
            assert session._auto_decompress is False
            return session

        session = asyncio.run(main())
    assert session.closed


def test_neither_import_modelport_nor_get_model_imports_aiohttp() -> None:
    code = (
        "import sys, modelport; m = modelport.get_model('google/g', api_key='k'); "
        "print(sorted(n for n in sys.modules if n.split('.')[0] in ('aiohttp', 'httpx_aiohttp')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True)
    assert out.stdout.strip() == "[]"


def test_without_the_aiohttp_extra_async_calls_use_httpx(monkeypatch: pytest.MonkeyPatch) -> None:
    from modelport.http import _clients as provider

    monkeypatch.setattr(provider, "_aiohttp_installed", lambda: False)
    with Loopback(ok) as server:
        m = model(server)  # async_transport="auto"

        async def main() -> httpx.AsyncClient:
            assert (await m.agenerate(prompt="hi")).text == "hello"
            return await m.provider.http.async_client()

        assert type(asyncio.run(main())) is httpx.AsyncClient
