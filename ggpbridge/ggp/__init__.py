"""The GGP bridge: protocol messages, an HTTP player, a game manager, export to a game repository."""
from .protocol import GgpError, ProtocolError

__all__ = ["GgpError", "ProtocolError"]
