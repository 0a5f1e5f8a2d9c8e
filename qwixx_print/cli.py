"""The ``qwixx`` command line. All click code of the sheet side lives here;
``qwixx scan`` lives in ``qwixx_scan.cli`` and is added to the group below.

Library code raises :class:`~qwixx_print.errors.QwixxError`; :func:`main`
turns it into one line on stderr and the documented exit code.
"""

from __future__ import annotations

import json
import sys
import traceback

import click

from . import __version__
from .breakdown import score_breakdown
from .errors import ExitCode, QwixxError
from .layout import builtin_names, load_layout
from .marks_file import read_marks_file
from .rules import DEFAULT_CHAIN_RULE, ChainRule, score_sheet


class QwixxGroup(click.Group):
    """Runs a subcommand and reports errors in one place."""

    def invoke(self, ctx: click.Context):  # type: ignore[override]
        try:
            return super().invoke(ctx)
        except QwixxError as exc:
            if ctx.obj and ctx.obj.get("verbose"):
                traceback.print_exc()
            click.echo(f"qwixx: {exc.message}", err=True)
            ctx.exit(int(exc.exit_code))


@click.group(cls=QwixxGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="qwixx")
@click.option("-v", "--verbose", is_flag=True, help="Show the full traceback on errors.")
@click.pass_context
def cli(ctx: click.Context, verbose: bool) -> None:
    """Print Qwixx score pads and score photographed sheets.

    \b
    Exit codes:
      0  done; every sheet scored without a rule problem
      1  a sheet breaks a rule or needs review (score, scan)
      2  wrong command-line usage
      3  bad input: unknown layout or letter, unreadable file or photo
      4  an output file cannot be written
     10  internal error (a bug; run with -v and report the traceback)
    """
    ctx.ensure_object(dict)
    ctx.obj["verbose"] = verbose


def echo_warnings(warnings: tuple[str, ...] | list[str]) -> None:
    for warning in warnings:
        click.echo(f"qwixx: {warning}", err=True)


@cli.command("layouts")
def layouts_command() -> None:
    """List the built-in layouts and their sheet letters."""
    for name in builtin_names():
        layout = load_layout(name)
        letters = ", ".join(str(k) for k in layout.letters if k is not None) or "(one sheet)"
        sheet = layout.sheet(layout.letters[0])
        title = " ".join(t for t in (sheet.title, sheet.subtitle) if t)
        w, h = sheet.size_mm
        click.echo(f"{name:<10} {title:<28} {w:g} x {h:g} mm   letters: {letters}")


@cli.command("geometry")
@click.argument("layout")
@click.option("--letter", "-l", metavar="L", help="Sheet letter (A-E); not for classic.")
def geometry_command(layout: str, letter: str | None) -> None:
    """Print the geometry of LAYOUT's sheet as JSON (mm from the top-left corner).

    LAYOUT is a built-in name (see `qwixx layouts`) or a layout YAML file.
    Without --letter, a Connected layout prints its first sheet (A).
    """
    model = load_layout(layout)
    echo_warnings(model.warnings)
    if letter is None and None not in model.sheets:
        letter = model.letters[0]
    sheet = model.sheet(letter)
    click.echo(json.dumps(sheet.geometry_json(), indent=2))


@cli.command("print")
@click.argument("layout")
@click.option("--letters", "-l", metavar="LETTERS",
              help="Sheets to print, cycling: A,C or A-E (default: all the layout's letters).")
@click.option("--sheets", "-n", type=int, default=80, show_default=True, metavar="N",
              help="Number of sheets (one pad is 80; at most 2000).")
@click.option("--paper", type=click.Choice(["a4", "letter", "sheet"], case_sensitive=False),
              default="a4", show_default=True,
              help="a4/letter: as many sheets per page as fit at 100 % (four built-in sheets), "
                   "centred, with cut marks, for home printers; sheet: one sheet per page at its "
                   "trim size, for a print shop.")
@click.option("--bleed", type=float, default=0.0, show_default=True, metavar="MM",
              help="Extend artwork touching the trim edge this far (print shops: 3).")
@click.option("--cmyk", is_flag=True, help="Draw every colour in CMYK (print shops).")
@click.option("--no-cut-marks", is_flag=True, help="Leave out the cut marks (a4/letter).")
@click.option("-o", "--output", required=True, metavar="FILE.pdf", help="The PDF to write.")
def print_command(layout: str, letters: str | None, sheets: int, paper: str, bleed: float,
                  cmyk: bool, no_cut_marks: bool, output: str) -> None:
    """Write a print-ready pad of LAYOUT's sheets to FILE.pdf.

    LAYOUT is a built-in name (see `qwixx layouts`) or a layout YAML file.
    Connected layouts cycle their letters (A, B, C, D, E, A, ...) so
    neighbouring sheets differ. Print at 100 % ("actual size"), not
    "fit to page", for sheets of their designed size (the scanner reads
    shrunk ones too).
    """
    from .render import write_pad  # reportlab loads only when printing

    model = load_layout(layout)
    echo_warnings(model.warnings)
    info = write_pad(output, model, letters=letters, sheets=sheets, paper=paper.lower(),
                     bleed_mm=bleed, cmyk=cmyk, cut_marks=not no_cut_marks)
    click.echo(f"qwixx: {info.summary(output)}", err=True)


@cli.command("score")
@click.argument("file", metavar="FILE")
@click.option("--json", "as_json", is_flag=True,
              help="Print the sheet object of `qwixx scan --json` instead of the breakdown.")
@click.option("--house-rule", type=click.Choice([r.value for r in ChainRule]),
              default=DEFAULT_CHAIN_RULE.value, show_default=True,
              help="Kettingen: does an auto-crossed chain box become your last cross in its "
                   "row (last) or not (free)? It does not change a finished sheet's score.")
@click.pass_context
def score_command(ctx: click.Context, file: str, as_json: bool, house_rule: str) -> None:
    """Score a sheet typed by hand or corrected after a scan (FILE: YAML or JSON; - is stdin).

    \b
    FILE is either a sheet object from `qwixx scan --json` (layout, letter,
    marked) or the hand-typed form:
      layout: treden
      letter: C
      red: [2, 3, 5, 12, lock]
      yellow: [4, 6]
      blue: [12, 11]
      penalties: 2

    \b
    Exit codes:
      0  status ok: scored, no rule broken
      1  status invalid (a rule error) or review (a warning, or uncertain
         boxes kept from a scan result)
      3  bad input: unreadable or malformed file, unknown layout, letter or box
    """
    stdin_text = sys.stdin.read() if file == "-" else None
    marks = read_marks_file(file, stdin_text=stdin_text)
    echo_warnings(marks.layout_warnings)
    score = score_sheet(marks.sheet, marks.marked, chain_rule=ChainRule(house_rule),
                        penalty_count=marks.penalty_count)
    if as_json:
        click.echo(json.dumps(score.to_json(marks.uncertain), indent=2))
    else:
        click.echo(score_breakdown(score, marks.uncertain))
    if score.status(marks.uncertain) != "ok":
        ctx.exit(int(ExitCode.rule_problem))


def main() -> None:
    """Console-script entry point."""
    try:
        cli.main(prog_name="qwixx", standalone_mode=True)
    except Exception:  # a bug: say so plainly, with the traceback for a report
        traceback.print_exc()
        click.echo("qwixx: internal error; please report it with the traceback above", err=True)
        sys.exit(int(ExitCode.internal))


def _register_scan() -> None:
    # Imported here, not at the top: qwixx_scan.cli imports this package.
    from qwixx_scan.cli import register

    register(cli)


_register_scan()
