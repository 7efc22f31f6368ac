"""Placeholder until the v0.3 builder exists."""
from .builder import Builder as Builder03
