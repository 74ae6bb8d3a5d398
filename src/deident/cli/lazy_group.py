"""A command group that imports a command's module only when that command runs (or its own ``--help`` shows), so
that ``deident --version``, ``deident --help`` and every command start without importing the others' libraries."""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from difflib import get_close_matches
from typing import Any, ClassVar

import typer

# typer's own copy of click, which its groups and commands are built on (not the click package).
from typer._click.core import Command, Context
from typer._click.exceptions import UsageError
from typer._click.formatting import HelpFormatter
from typer.core import TyperCommand, TyperGroup


@dataclass(frozen=True, slots=True)
class LazyCommand:
    """Where a command's function lives, and the first sentence of its docstring: what the group's ``--help``
    lists without importing it (tests/cli/test_lazy_group.py checks it against the docstring)."""

    module: str
    function: str
    summary: str
    epilog: str | None = None


class LazyGroup(TyperGroup):
    """Subclasses set ``lazy_commands`` (name to where the command lives), listed first and in that order; commands
    registered on the typer app itself are loaded at once as usual and listed after them."""

    lazy_commands: ClassVar[dict[str, LazyCommand]] = {}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._loaded: dict[str, Command] = {}

    def list_commands(self, ctx: Context) -> list[str]:
        return [*self.lazy_commands, *(name for name in super().list_commands(ctx) if name not in self.lazy_commands)]

    def get_command(self, ctx: Context, cmd_name: str) -> Command | None:
        lazy = self.lazy_commands.get(cmd_name)
        if lazy is None:
            return super().get_command(ctx, cmd_name)
        if cmd_name not in self._loaded:
            self._loaded[cmd_name] = _load(cmd_name, lazy, self.rich_markup_mode)
        return self._loaded[cmd_name]

    def format_commands(self, ctx: Context, formatter: HelpFormatter) -> None:
        # As click's listing, from the summaries: a stand-in command with the summary as its help shortens it
        # exactly as the real command's docstring would be.
        rows: list[tuple[str, Command]] = []
        for name in self.list_commands(ctx):
            lazy = self.lazy_commands.get(name)
            command = TyperCommand(name, help=lazy.summary) if lazy else super().get_command(ctx, name)
            if command is not None and not command.hidden:
                rows.append((name, command))
        if rows:
            limit = formatter.width - 6 - max(len(name) for name, _ in rows)
            with formatter.section("Commands"):
                formatter.write_dl([(name, command.get_short_help_str(limit)) for name, command in rows])

    def resolve_command(self, ctx: Context, args: list[str]) -> tuple[str | None, Command | None, list[str]]:
        # As typer's, suggesting from every command where typer's would suggest only those already loaded.
        try:
            return self._click_resolve_command(ctx, args)
        except UsageError as error:
            matches = get_close_matches(args[0], self.list_commands(ctx)) if args else []
            if matches:
                error.message = f"{error.message.rstrip('.')}. Did you mean {', '.join(map(repr, matches))}?"
            raise


def _load(name: str, lazy: LazyCommand, rich_markup_mode: Any) -> Command:
    """The click command typer builds for the function, as ``app.command(name)`` would have built it."""
    function: Callable[..., Any] = getattr(importlib.import_module(lazy.module), lazy.function)
    single = typer.Typer(add_completion=False, pretty_exceptions_enable=False, rich_markup_mode=rich_markup_mode)
    single.command(name, epilog=lazy.epilog)(function)
    return typer.main.get_command(single)
