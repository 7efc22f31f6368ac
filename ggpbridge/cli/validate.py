"""`ggpbridge validate FILE...`: parse and statically check GDL / GDL-II files."""
from __future__ import annotations

import json
from pathlib import Path

import click

from ggpbridge.gdl.errors import KifSyntaxError
from ggpbridge.gdl.kif import read_kif
from ggpbridge.gdl.validate import Diagnostic, detect_gdl_version
from ggpbridge.gdl.validate import validate as check_description


def check_file(path: Path) -> dict:
    """Parse and check one file; returns a report, prints nothing."""
    report: dict = {"file": str(path), "gdl_version": None, "rules": 0,
                    "diagnostics": [], "fatal": None, "col": None}
    try:
        desc = read_kif(path)
        report["gdl_version"] = detect_gdl_version(desc)
        report["rules"] = len(desc.rules)
        report["diagnostics"] = check_description(desc)
    except KifSyntaxError as exc:
        report["fatal"] = str(exc) + _recycle_hint(path)
        report["col"] = exc.col
        report["diagnostics"] = [Diagnostic("error", exc.message, exc.line, exc.source_line.strip())]
    except OSError as exc:
        _fail(report, f"cannot read the file: {exc}")
    except Exception as exc:  # noqa: BLE001 - the command promises no traceback
        _fail(report, f"internal error: {type(exc).__name__}: {exc}")
    return report


def _recycle_hint(path: Path) -> str:
    """A hint for a file that is not KIF but a RECYCLE game (CardStock's `.gdl` files are)."""
    from ggpbridge.errors import GgpBridgeError
    from ggpbridge.recycle import parse_text
    try:
        parse_text(path.read_bytes().decode("utf-8", errors="replace"), str(path))
    except (GgpBridgeError, OSError, RecursionError):
        return ""
    return (f"\n  {path} is a RECYCLE game: `ggpbridge check {path}` checks it, "
            f"`ggpbridge translate {path}` gives its GDL-II")


def _fail(report: dict, message: str) -> None:
    report["fatal"] = f"{report['file']}: error: {message}"
    report["diagnostics"] = [Diagnostic("error", message)]
    report["gdl_version"] = None


def _count(diags: list[Diagnostic], severity: str) -> int:
    return sum(d.severity == severity for d in diags)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _summary(report: dict) -> str:
    diags = report["diagnostics"]
    counts = f"{_plural(_count(diags, 'error'), 'error')}, {_plural(_count(diags, 'warning'), 'warning')}"
    if report["gdl_version"] is None:
        return f"{report['file']}: {counts} (not checked)"
    version = "GDL-II" if report["gdl_version"] == 2 else "GDL"
    return f"{report['file']}: {counts} ({version}, {_plural(report['rules'], 'rule')})"


def _as_json(report: dict) -> dict:
    diags = report["diagnostics"]
    items = [d.as_dict() for d in diags]
    if report["col"] is not None:
        items[0]["col"] = report["col"]
    return {
        "file": report["file"], "gdl_version": report["gdl_version"], "rules": report["rules"],
        "errors": _count(diags, "error"), "warnings": _count(diags, "warning"), "diagnostics": items,
    }


def _print_grouped(diags: list[Diagnostic], filename: str, shown: int = 5) -> None:
    """Each distinct message once, at its first rule, with the count and lines of its repeats:
    a generated description can repeat one warning over every one of its facts."""
    groups: dict[tuple[str, str], list[Diagnostic]] = {}
    for diag in diags:
        groups.setdefault((diag.severity, diag.message), []).append(diag)
    for first, *rest in groups.values():
        click.echo(first.format(filename))
        if rest:
            lines = ", ".join(str(d.line) for d in rest[:shown]) + (", ..." if len(rest) > shown else "")
            click.echo(f"    and {len(rest)} more like it, at lines {lines}")


@click.command("validate")
@click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead of text.")
def validate(files: tuple[Path, ...], as_json: bool) -> None:
    """Parse and statically check GDL / GDL-II (KIF) files; exit 1 on any error."""
    reports = [check_file(path) for path in files]
    errors = sum(_count(r["diagnostics"], "error") for r in reports)
    if as_json:
        click.echo(json.dumps({"files": [_as_json(r) for r in reports], "errors": errors}, indent=2))
    else:
        for report in reports:
            if report["fatal"]:
                click.echo(report["fatal"])
            else:
                _print_grouped(report["diagnostics"], report["file"])
            click.echo(_summary(report))
    click.get_current_context().exit(1 if errors else 0)
