"""GDL / GDL-II in KIF: AST, reader, printer and static validator."""
from .ast import Const, Description, Distinct, Func, Not, Or, Rule, Var
from .errors import GdlError, KifSyntaxError
from .kif import parse_kif, print_kif, to_kif
from .validate import Diagnostic, detect_gdl_version, is_valid, validate

__all__ = [
    "Const", "Description", "Distinct", "Func", "Not", "Or", "Rule", "Var",
    "GdlError", "KifSyntaxError", "parse_kif", "print_kif", "to_kif",
    "Diagnostic", "detect_gdl_version", "is_valid", "validate",
]
