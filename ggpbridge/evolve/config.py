"""The evolution's settings: `default.toml` beside this module, overridden by a user's TOML file.

The defaults live in one commented file (the documentation of every key) rather than in code,
so that `ggpbridge evolve --config` files and the defaults read the same way.
"""
from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path

from ..errors import GgpBridgeError


class ConfigError(GgpBridgeError):
    """A configuration file that cannot be read or names a key that does not exist."""


def default_text() -> str:
    """The default configuration, with its comments."""
    return files(__package__).joinpath("default.toml").read_text(encoding="utf-8")


def load(path: str | Path | None = None) -> dict:
    """The defaults with the sections and keys of the TOML file at `path` laid over them.
    An unknown section or key, or a value of another type, is an error naming the file."""
    conf = tomllib.loads(default_text())
    if path is None:
        return conf
    try:
        user = tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: {e}") from None
    except OSError as e:
        raise ConfigError(f"{path}: {e.strerror or e}") from None
    for section, values in user.items():
        if section not in conf or not isinstance(values, dict):
            raise ConfigError(f"{path}: unknown section [{section}]; known: {', '.join(conf)}")
        for key, value in values.items():
            if key not in conf[section]:
                raise ConfigError(f"{path}: [{section}] has no key {key!r}; known: {', '.join(conf[section])}")
            want = type(conf[section][key])
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, want) or isinstance(value, bool) != (want is bool):
                raise ConfigError(f"{path}: [{section}] {key} must be {want.__name__}, not {value!r}")
            if value < 0:
                raise ConfigError(f"{path}: [{section}] {key} must not be negative")
            conf[section][key] = value
    return conf
