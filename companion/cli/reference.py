"""docs/commands.md, the command reference, generated from the click commands themselves so
that it cannot drift from ``--help`` (tests/cli/test_reference.py checks the file is current).

    make docs            # or: python -m companion.cli.reference --write docs/commands.md

The Markdown is built from the commands' own text (usage, help, options and their help), not
from click's terminal formatter, so it is the same whatever the terminal's width, $COLUMNS or
the machine: nothing here reads the environment.
"""

from __future__ import annotations

import inspect
import re
import sys

import click

from ..render.rulebook import page_main
from . import COMMANDS, cli

DOC = "docs/commands.md"
REGENERATE = "make docs (or: python -m companion.cli.reference --write docs/commands.md)"


def generate() -> str:
    """The whole reference, as Markdown text."""
    root = click.Context(cli, info_name="companion")
    sections = list(_walk(root))
    toc = []
    for ctx in sections[1:]:
        short = COMMANDS[ctx.info_name][2] if ctx.parent is root else \
            ctx.command.get_short_help_str(limit=200)
        indent = "  " * (_depth(ctx) - 1)
        toc.append(f"{indent}- [{ctx.command_path}](#{_anchor(ctx.command_path)}): "
                   f"{_inline(short)}")
    head = [
        "# Command reference",
        "",
        "<!-- Generated from the click commands by `make docs`; do not edit by hand. -->",
        "",
        "Every command and option of `companion`, as `companion COMMAND --help` shows them. "
        "Every command also takes `-h` / `--help`. Shell completion for bash, zsh and fish: "
        "[completion.md](completion.md).",
        "",
        *toc,
    ]
    body = [_section(ctx) for ctx in sections]
    return "\n".join(head) + "\n\n" + "\n\n".join(body) + "\n"


def _walk(ctx: click.Context):
    """The group's context, then each command's (and, in a group, its subcommands')."""
    yield ctx
    command = ctx.command
    if isinstance(command, click.Group):
        for name in command.list_commands(ctx):
            sub = command.get_command(ctx, name)
            if sub is not None and not sub.hidden:
                yield from _walk(click.Context(sub, info_name=name, parent=ctx))


def _depth(ctx: click.Context) -> int:
    return len(ctx.command_path.split()) - 1


def _anchor(title: str) -> str:
    # GitHub's heading anchors: lower case, spaces to hyphens, other punctuation dropped
    return re.sub(r"[^a-z0-9 _-]", "", title.lower()).replace(" ", "-")


def _section(ctx: click.Context) -> str:
    command = ctx.command
    usage = " ".join([ctx.command_path, *command.collect_usage_pieces(ctx)])
    out = ["#" * (_depth(ctx) + 2) + " " + ctx.command_path, "", "```", usage, "```"]
    if command.help:
        out += ["", _help_text(command.help)]
    arguments = [p for p in command.get_params(ctx) if isinstance(p, click.Argument)]
    if arguments:
        out += ["", "**Arguments**", "", "| Argument | Description |", "| --- | --- |"]
        out += [f"| {_code(_metavar(ctx, p))} | {_cell(_argument_text(p))} |" for p in arguments]
    options = [p for p in command.get_params(ctx) if isinstance(p, click.Option)
               and not p.hidden and not set(p.opts) & set(ctx.help_option_names)]
    if options:
        out += ["", "**Options**", "", "| Option | Description |", "| --- | --- |"]
        out += [f"| {_code(_option_names(ctx, p))} | {_cell(_option_text(p))} |"
                for p in options]
    return "\n".join(out)


def _help_text(text: str) -> str:
    """A docstring as Markdown: paragraphs reflowed; a click ``\\b`` block of a title line
    and indented lines (``Examples:``) becomes the title and a code block."""
    text = inspect.cleandoc(text).partition("\f")[0]
    out = []
    for para in re.split(r"\n[ \t]*\n", text):
        lines = para.split("\n")
        if lines[0].strip() == "\b":
            lines = lines[1:]
            blocks = _titled_blocks(lines)
            if blocks is not None:
                out += blocks
                continue
        out.append(_inline(" ".join(line.strip() for line in lines)))
    return "\n\n".join(out)


def _titled_blocks(lines: list[str]) -> list[str] | None:
    """``Title:`` lines each followed by indented lines, as paragraphs and code blocks; None
    when the block is not of that shape (it is then prose)."""
    out: list[str] = []
    code: list[str] = []
    for line in lines:
        if line.startswith((" ", "\t")):
            if not out:
                return None
            code.append(line)
        elif line.rstrip().endswith(":"):
            if out and not code:
                return None
            if code:
                out.append(_fence(code))
                code = []
            out.append(_inline(line.strip()))
        else:
            return None
    if not code:
        return None
    out.append(_fence(code))
    return out


def _fence(lines: list[str]) -> str:
    return "```sh\n" + inspect.cleandoc("\n".join(lines)) + "\n```"


def _metavar(ctx: click.Context, param: click.Parameter) -> str:
    try:
        return param.make_metavar(ctx)
    except TypeError:  # click before 8.2 takes no context
        return param.make_metavar()


def _option_names(ctx: click.Context, option: click.Option) -> str:
    names = ", ".join(sorted(option.opts, key=lambda o: (o.startswith("--"), o)))
    if option.secondary_opts:
        names += " / " + ", ".join(option.secondary_opts)
    if not option.is_flag and not option.count:
        names += " " + _metavar(ctx, option)
    return names


def _option_text(option: click.Option) -> str:
    parts = [" ".join((option.help or "").split())]
    if isinstance(option.show_default, str):
        parts.append(f"Default: {option.show_default}.")
    elif option.show_default and option.default is not None and not callable(option.default):
        parts.append(f"Default: `{option.default}`.")
    if option.required:
        parts.append("Required.")
    describe = getattr(option.type, "_describe_range", None)
    if describe is not None:
        parts.append(f"Range: `{describe()}`.")
    return " ".join(p for p in parts if p)


def _argument_text(argument: click.Argument) -> str:
    kind = argument.type
    if getattr(argument, "description", None):  # common.DescribedArgument
        text = argument.description
    elif getattr(kind, "description", None):  # the variant and game id types
        text = kind.description
        text = kind.description
    elif isinstance(kind, click.Choice):
        text = "One of: " + ", ".join(f"`{c}`" for c in kind.choices) + "."
    elif isinstance(kind, click.Path):
        text = "A folder." if not kind.file_okay else "A file."
        if kind.allow_dash:
            text += " `-` is standard input."
    else:
        text = ""
    if argument.nargs == -1:
        text = (text + " Any number of them.").strip()
    elif not argument.required:
        default = argument.default
        text = (text + " Optional" + (f" (default: `{default}`)." if isinstance(default, str)
                                      else ".")).strip()
    return text


def _inline(text: str) -> str:
    """Plain help text as Markdown: backtick spans kept as they are; elsewhere the
    characters Markdown would take for emphasis or HTML are escaped."""
    parts = re.split(r"(`[^`]*`)", text)
    for i in range(0, len(parts), 2):
        part = parts[i].replace("\\", "\\\\").replace("*", "\\*").replace("<", "&lt;")
        parts[i] = re.sub(r"(?<![A-Za-z0-9])_|_(?![A-Za-z0-9])", r"\\_", part)
    return "".join(parts)


def _code(text: str) -> str:
    return "`" + text.replace("|", "\\|") + "`"


def _cell(text: str) -> str:
    # a table cell: Markdown inline text on one line, with its pipes escaped (in code too)
    return _inline(text).replace("|", "\\|")


def main(argv: list[str] | None = None) -> int:
    return page_main(argv, "companion.cli.reference", "docs/commands.md",
                     "the command reference, generated from the click commands", generate)


if __name__ == "__main__":
    sys.exit(main())
