"""The evolution's settings: `default.toml` beside this module, overridden by a user's TOML file.

The defaults live in one commented file (the documentation of every key) rather than in code,
so that `ggpbridge evolve --config` files and the defaults read the same way.
"""
from __future__ import annotations

import tomllib
from importlib.resources import files
from pathlib import Path

from .. import tomlfile
from ..errors import NOPOS, PositionedError, Source


class ConfigError(PositionedError):
    """A configuration file that cannot be read or names a key that does not exist (at its line:col)."""


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
        source = tomlfile.read_source(path, ConfigError)
    except OSError as e:
        raise ConfigError(e.strerror or str(e), NOPOS, Source(str(path), "")) from None
    text = source.text
    user = tomlfile.loads(source, ConfigError)
    for section, values in user.items():
        if section not in conf or not isinstance(values, dict):
            raise ConfigError(f"unknown section [{section}]; known: {', '.join(conf)}",
                              tomlfile.key_pos(text, section, section if isinstance(values, dict) else None), source)
        for key, value in values.items():
            where = tomlfile.key_pos(text, key, section)
            if key not in conf[section]:
                raise ConfigError(f"[{section}] has no key {key!r}; known: {', '.join(conf[section])}", where, source)
            want = type(conf[section][key])
            if want is float and isinstance(value, int) and not isinstance(value, bool):
                value = float(value)
            if not isinstance(value, want) or isinstance(value, bool) != (want is bool):
                raise ConfigError(f"[{section}] {key} must be {want.__name__}, not {value!r}", where, source)
            if value < 0:
                raise ConfigError(f"[{section}] {key} must not be negative", where, source)
            conf[section][key] = value
    return conf
