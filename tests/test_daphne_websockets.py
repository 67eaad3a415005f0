"""Frames written at once (config/daphne_websockets.py), on Twisted's real TCP transport over
a real socket pair: an idle socket sends the frame now, without waiting for the reactor;
anything already queued goes first; what the socket does not take, and a lost
connection, go Twisted's usual buffered way, in order. (Every websocket test through a
real server process runs the same path end to end.)"""

import socket

import pytest
from twisted.internet import tcp
from twisted.internet.protocol import Protocol

from config.daphne_websockets import send_now


class Reactor:
    """Records what the transport asks of its reactor: to be told when it may write."""

    def __init__(self):
        self.writers = []

    def addWriter(self, writer):
        if writer not in self.writers:  # as every reactor: once, however often asked
            self.writers.append(writer)

    def removeWriter(self, writer):
        if writer in self.writers:
            self.writers.remove(writer)


@pytest.fixture
def pair():
    ours, theirs = socket.socketpair()
    reactor = Reactor()
    transport = tcp.Connection(ours, Protocol(), reactor)
    transport.connected = True
    theirs.setblocking(False)
    yield transport, theirs, reactor
    ours.close()
    theirs.close()


def received(peer) -> bytes:
    data = b""
    while True:
        try:
            chunk = peer.recv(1 << 20)
        except BlockingIOError:
            return data
        if not chunk:
            return data
        data += chunk


def test_an_idle_socket_sends_the_frame_at_once_without_the_reactor(pair):
    transport, peer, reactor = pair
    assert send_now(transport, b"frame-1") == b""
    assert send_now(transport, b"frame-2") == b""
    assert received(peer) == b"frame-1frame-2"
    assert reactor.writers == []


def test_a_frame_waits_behind_what_is_queued(pair):
    transport, peer, reactor = pair
    transport.write(b"first")  # Twisted's buffered write: sent when the reactor says so
    assert reactor.writers == [transport]
    assert send_now(transport, b"second") == b"second"
    transport.write(b"second")
    assert received(peer) == b""
    transport.doWrite()  # the reactor's turn
    assert received(peer) == b"firstsecond"
    assert reactor.writers == []


def test_what_the_socket_does_not_take_goes_the_buffered_way_in_order(pair):
    transport, peer, reactor = pair
    transport.socket.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4096)
    frame = bytes(range(256)) * 4096  # 1 MiB: more than the socket takes at once
    rest = send_now(transport, frame)
    assert 0 < len(rest) < len(frame)
    transport.write(rest)
    assert reactor.writers == [transport]
    got = b""
    while len(got) < len(frame):
        got += received(peer)
        transport.doWrite()
    assert got == frame


def test_a_lost_connection_is_left_to_twisted(pair):
    transport, peer, _ = pair
    peer.close()
    assert send_now(transport, b"frame") == b"frame"  # Twisted's write finds the loss on its turn


def test_a_closing_aborted_or_encrypted_transport_is_left_alone(pair):
    transport, peer, _ = pair
    transport.disconnecting = True
    assert send_now(transport, b"frame") == b"frame"
    transport.disconnecting = False
    transport._aborting = True
    assert send_now(transport, b"frame") == b"frame"
    transport._aborting = False
    transport.TLS = True
    assert send_now(transport, b"frame") == b"frame"
    assert received(peer) == b""
