"""The client's address for the per-address limits (rooms/addresses.py), and the
trusted proxies' setting (rooms/settings.py): X-Forwarded-For is believed only from a
trusted proxy, read from the right, so a client cannot choose its address."""

from __future__ import annotations

from ipaddress import ip_network

import pytest

from rooms import settings
from rooms.addresses import client_address

HAPROXY = (ip_network("127.0.0.1/32"),)
TWO_PROXIES = (*HAPROXY, ip_network("10.0.0.0/8"))


@pytest.mark.parametrize(
    ("peer", "forwarded", "trusted", "client"),
    [
        ("203.0.113.9", [], (), "203.0.113.9"),  # served directly: the peer
        ("203.0.113.9", ["6.6.6.6"], (), "203.0.113.9"),  # a client's header: ignored
        (None, ["6.6.6.6"], (), None),  # loopback, nobody trusted: unknown
        (None, [], HAPROXY, None),  # AppTest, or a local browser straight to a replica
        (None, ["198.51.100.7"], HAPROXY, "198.51.100.7"),  # behind deploy/serve's HAProxy
        (None, ["6.6.6.6", "198.51.100.7"], HAPROXY, "198.51.100.7"),  # forged line first
        (None, ["6.6.6.6, 198.51.100.7"], HAPROXY, "198.51.100.7"),  # forged hop first
        (None, ["198.51.100.7, 10.1.2.3"], TWO_PROXIES, "198.51.100.7"),  # two proxies
        ("10.1.2.3", ["198.51.100.7"], TWO_PROXIES, "198.51.100.7"),
        (None, ["2001:db8::7"], HAPROXY, "2001:db8::7"),
        (None, ["not-an-address"], HAPROXY, None),  # what lies before it is not trusted
        ("203.0.113.9", ["198.51.100.7"], HAPROXY, "203.0.113.9"),  # not the proxy
    ],
)
def test_the_client_is_the_peer_or_what_a_trusted_proxy_says(peer, forwarded, trusted, client):
    assert client_address(peer, forwarded, trusted=trusted) == client


def test_the_trusted_proxies_setting_reads_addresses_and_networks():
    found = settings.resolved(
        environment={settings.TRUSTED_PROXIES.variable: "127.0.0.1, 10.0.0.0/8 2001:db8::/32"},
        secrets={},
    )
    assert found.trusted_proxies == (
        ip_network("127.0.0.1/32"),
        ip_network("10.0.0.0/8"),
        ip_network("2001:db8::/32"),
    )
    assert settings.resolved(environment={}, secrets={}).trusted_proxies == ()
    with pytest.raises(settings.SettingError, match="'10.0.0.0/99', which is no IP address"):
        settings.resolved(environment={"POOLING_LAB_TRUSTED_PROXIES": "10.0.0.0/99"}, secrets={})
