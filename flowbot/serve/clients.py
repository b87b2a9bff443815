"""Who a request comes from: its peer address, or behind a trusted reverse proxy the address the proxy
says it forwarded for. Pure functions of the peer and the headers, so the caps, the queue and the logs
all key on the same answer.

From a peer that is not a trusted proxy, `X-Forwarded-For` and `Forwarded` are anyone's to write and
are ignored. From a trusted one, the chain of addresses is read from the right (the hop the proxy
added last) and the first address that is not itself a trusted proxy is the client: what a client
wrote to the left of it cannot move it.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Iterable, Mapping, Sequence

Network = ipaddress.IPv4Network | ipaddress.IPv6Network

# A client named by a proxy is kept to this many printable characters (it goes in logs and keys).
MAX_CLIENT_CHARS = 64

# The `for=` parameter of one element of a Forwarded header (RFC 7239): a token or a quoted string.
_FORWARDED_FOR = re.compile(r'(?:^|;)\s*for\s*=\s*("(?:[^"\\]|\\.)*"|[^;,\s]*)', re.IGNORECASE)


def parse_trusted(text: str) -> tuple[Network, ...]:
    """The networks of `--trusted-proxy ADDR[,ADDR]` (an address, or a network such as 10.0.0.0/8);
    ValueError naming the entry that is neither."""
    networks = []
    for entry in text.split(","):
        entry = entry.strip()
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(
                f"{entry!r} is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/8)"
            ) from None
    return tuple(networks)


def client_address(peer: str | None, headers: Mapping[str, str], trusted: Sequence[Network]) -> str:
    """The client a request is counted and logged as: `peer` itself unless it is a trusted proxy, then
    the right-most address of its X-Forwarded-For (or, without one, Forwarded) chain that is not
    trusted (the left-most when every one is)."""
    own = normal_address(peer) if peer else None
    if own is None:
        return _printable(peer or "unknown")
    if not _is_trusted(own, trusted):
        return own
    chain = forwarded_chain(headers)
    for hop in reversed(chain):
        address = normal_address(hop)
        if address is None:  # "unknown" or an obfuscated name: what the proxy said, it is the client
            return _printable(hop) or own
        if not _is_trusted(address, trusted):
            return address
    return normal_address(chain[0]) if chain else own


def forwarded_chain(headers: Mapping[str, str]) -> list[str]:
    """The addresses a request passed through, first client first: from X-Forwarded-For, or from
    Forwarded's `for=` when there is no X-Forwarded-For (every proxy known writes the former)."""
    getall = getattr(headers, "getall", None)
    if getall is not None:
        forwarded_for, forwarded = getall("X-Forwarded-For", []), getall("Forwarded", [])
    else:
        forwarded_for, forwarded = _values(headers, "X-Forwarded-For"), _values(headers, "Forwarded")
    if forwarded_for:
        return [hop.strip() for line in forwarded_for for hop in line.split(",") if hop.strip()]
    hops = []
    for line in forwarded:
        for element in line.split(","):
            found = _FORWARDED_FOR.search(element)
            if found:
                hops.append(found.group(1).strip('"').replace('\\"', '"'))
    return [hop for hop in hops if hop]


def normal_address(text: str) -> str | None:
    """An IP address as one spelling (an IPv4 one mapped in IPv6 as IPv4), without the brackets or
    port a header may add ("[2001:db8::1]:4711", "192.0.2.4:80"); None for anything else."""
    text = text.strip().strip('"')
    if text.startswith("["):
        text = text[1 : text.find("]")] if "]" in text else text[1:]
    elif text.count(":") == 1:
        text = text.split(":", 1)[0]
    try:
        address = ipaddress.ip_address(text.split("%", 1)[0])
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return str(address)


def _is_trusted(address: str, trusted: Iterable[Network]) -> bool:
    """True when the address is in one of the trusted networks."""
    parsed = ipaddress.ip_address(address)
    return any(parsed.version == network.version and parsed in network for network in trusted)


def _values(headers: Mapping[str, str], name: str) -> list[str]:
    """A header's values from a plain mapping (any case of its name)."""
    return [value for key, value in headers.items() if key.lower() == name.lower()]


def _printable(text: str) -> str:
    """A name safe for a log line and a dictionary key: printable, and short."""
    return "".join(char for char in text if char.isprintable() and not char.isspace())[:MAX_CLIENT_CHARS]
