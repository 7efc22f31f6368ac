"""GDL / GDL-II in KIF: AST (`ast`), reader and printer (`kif`), static checks (`validate`).

The function `validate` is deliberately not re-exported here: it would shadow
the submodule `ggpbridge.gdl.validate`. Import it from that module.
"""
from .ast import Const, Description, Distinct, Func, Not, Or, Rule, Var
from .errors import GdlError, KifSyntaxError
from .kif import parse_kif, print_kif, to_kif

__all__ = [
    "Const", "Description", "Distinct", "Func", "Not", "Or", "Rule", "Var",
    "GdlError", "KifSyntaxError", "parse_kif", "print_kif", "to_kif",
]
