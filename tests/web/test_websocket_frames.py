"""The server itself bounds WebSocket frames: a huge message is never buffered."""

from __future__ import annotations

import json
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from ligretto.live.protocol import MAX_MESSAGE_BYTES
from ligretto.serve_process import ServeProcess
from ligretto.web.server_options import WS_MAX_FRAME_BYTES

pytestmark = pytest.mark.slow


def test_a_frame_over_the_limit_closes_with_1009_and_a_long_message_is_refused(
    tmp_path: Path,
) -> None:
    server = ServeProcess(tmp_path)
    try:
        base = server.start()
        table = httpx.post(f"{base}/api/tables", json={"seats": 2}, timeout=10).json()
        url = table["ws_url"]
        with connect(url, max_size=None) as ws:
            # Over the protocol's 2 KiB but under the frame limit: read and
            # refused by the protocol, the connection stays usable.
            ws.send(json.dumps({"type": "ping", "pad": "x" * (MAX_MESSAGE_BYTES * 2)}))
            answer = json.loads(ws.recv(timeout=5))
            assert answer["type"] == "refused" and answer["code"] == "too_large"
            ws.send(json.dumps({"type": "ping", "t": 1.0}))
            assert json.loads(ws.recv(timeout=5))["type"] == "pong"
        with connect(url, max_size=None) as ws:
            ws.send("x" * (WS_MAX_FRAME_BYTES * 64))  # 512 KiB: the server stops reading
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=5)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
        assert httpx.get(f"{base}/api/tables/{table['code']}", timeout=5).status_code == 200
    finally:
        server.kill()
