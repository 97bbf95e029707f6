"""The client's network address, for the per-address limits (rooms/limits.py). Pure:
the page hands in what Streamlit tells of the connection (ui/class_mode/client.py).

Streamlit's `st.context.ip_address` is the TCP peer of the session's websocket, or
None for a loopback peer (127.0.0.1, ::1; it says so in its docstring) and for a run
with no connection at all (AppTest). Behind a proxy the peer is the proxy, so every
student would share its address; the proxy says who the client was in
X-Forwarded-For ("client, proxy1, proxy2", each proxy appending the address it saw).
That header is any client's to write, so it is believed only when the peer is a
proxy the settings name as trusted (settings.TRUSTED_PROXIES), and then read from the
right: the address the nearest trusted proxy saw is the first one, from the end, that
is not itself a trusted proxy. Whatever a client put in the header before that is
ignored, so a script cannot choose its address.

None means "not known": the limits then count per browser token only. It is what a
loopback peer gives when loopback is not trusted (a lecturer's own laptop running the
lab), and what a run with no connection gives.
"""

from __future__ import annotations

from collections.abc import Iterable
from ipaddress import IPv4Network, IPv6Network, ip_address

LOOPBACK = "127.0.0.1"  # what a peer that Streamlit calls None was (or no peer at all)


def _parsed(text: str):
    try:
        return ip_address(text.strip().strip("[]"))
    except ValueError:
        return None


def _trusted(address, networks: Iterable[IPv4Network | IPv6Network]) -> bool:
    return address is not None and any(address in network for network in networks)


def client_address(
    peer: str | None,
    forwarded_for: Iterable[str],
    *,
    trusted: tuple[IPv4Network | IPv6Network, ...],
) -> str | None:
    """The client's address: `peer` (Streamlit's ip_address; None for loopback) unless
    it is a trusted proxy, then the rightmost X-Forwarded-For address (every header
    line, in order, in `forwarded_for`) that is not a trusted proxy. None when
    unknown: a loopback peer not trusted, or a trusted one that names no client."""
    seen = _parsed(LOOPBACK if peer is None else peer)
    if not _trusted(seen, trusted):
        return None if peer is None or seen is None else str(seen)
    hops = [hop for line in forwarded_for for hop in str(line).split(",") if hop.strip()]
    for hop in reversed(hops):
        address = _parsed(hop)
        if address is None:
            return None  # a malformed hop: what lies before it cannot be trusted
        if not _trusted(address, trusted):
            return str(address)
    return None
