"""`feedloom estimate | simulate`: parse options, call the pure capacity code, render.

Bad input becomes a `typer.BadParameter` (exit 2 with a one-line reason), never a
traceback.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console

from feedloom.capacity.estimate import (
    Assumptions,
    estimate,
    estimate_as_dict,
    load_assumptions,
    render_estimate,
)
from feedloom.capacity.graph import Edge, GraphFormatError, generate_graph, read_graph_csv
from feedloom.capacity.simulate import (
    parse_thresholds,
    plot_simulation,
    result_as_dict,
    simulate,
    simulation_lines,
)
from feedloom.cli.errors import require_bench_extra
from feedloom.cli.progress import ProgressBars

DEFAULT_THRESHOLDS = "inf,5000,1000,200,0"


def estimate_command(
    assumptions: Annotated[
        Path | None,
        typer.Option(
            "--assumptions",
            help="TOML file overriding the brief's assumptions (same key names).",
            dir_okay=False,
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    scale: Annotated[
        float | None,
        typer.Option("--scale", help="Also estimate with DAU and accounts times this factor."),
    ] = None,
) -> None:
    """Back-of-the-envelope capacity estimate (the design brief, section 2)."""
    base = _load_assumptions(assumptions)
    base_estimate = estimate(base)
    scaled_estimate = None
    if scale is not None:
        try:
            scaled_estimate = estimate(base.scaled(scale))
        except ValueError as exc:
            raise _bad("--scale", str(exc)) from None
    if as_json:
        if scaled_estimate is None:
            _echo_json(estimate_as_dict(base_estimate))
        else:
            _echo_json(
                {
                    "base": estimate_as_dict(base_estimate),
                    "scaled": estimate_as_dict(scaled_estimate),
                }
            )
        return
    compare = None if scaled_estimate is None else (f"x{scale:g}", scaled_estimate)
    render_estimate(base_estimate, Console(), compare=compare)


def simulate_command(
    graph: Annotated[
        Path | None,
        typer.Option("--graph", help="Follower edge CSV with header 'follower,followee'."),
    ] = None,
    users: Annotated[
        int | None, typer.Option("--users", help="Generate a heavy-tailed graph of N users.")
    ] = None,
    seed: Annotated[
        int | None, typer.Option("--seed", help="Seed for --users (default 0).")
    ] = None,
    thresholds: Annotated[
        str,
        typer.Option("--thresholds", help="Comma-separated pull thresholds T; 'inf' = pure push."),
    ] = DEFAULT_THRESHOLDS,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    plot: Annotated[
        Path | None,
        typer.Option("--plot", help="Also draw writes and read sources against T into a PNG."),
    ] = None,
    own_list_under_pull: Annotated[
        bool,
        typer.Option(
            "--own-list-under-pull",
            help="Under pure pull (T < 1) count a list of the reader's own posts too.",
        ),
    ] = False,
) -> None:
    """Simulate push, pull and hybrid fan-out on a follower graph, per threshold T."""
    if plot is not None:
        require_bench_extra("simulate --plot", "matplotlib")
    try:
        parsed_thresholds = parse_thresholds(thresholds)
    except ValueError as exc:
        raise _bad("--thresholds", str(exc)) from None
    edges = _load_edges(graph, users, seed)
    with ProgressBars() as bars:
        rows = bars.counter("simulating thresholds", len(parsed_thresholds))
        try:
            result = simulate(
                edges, parsed_thresholds, own_list_under_pull=own_list_under_pull, row_done=rows
            )
        except ValueError as exc:
            raise _bad("--graph", str(exc)) from None
    # Plot first: a bad --plot path should fail before any output, not after it.
    if plot is not None:
        try:
            plot_simulation(result, plot)
        except OSError as exc:
            raise _bad("--plot", f"cannot write {plot}: {exc.strerror}") from None
    if as_json:
        _echo_json(result_as_dict(result))
    else:
        for line in simulation_lines(result):
            typer.echo(line)


def _load_assumptions(path: Path | None) -> Assumptions:
    if path is None:
        return Assumptions()
    try:
        return load_assumptions(path)
    except OSError as exc:
        raise _bad("--assumptions", f"cannot read {path}: {exc.strerror}") from None
    except ValueError as exc:
        # tomllib.TOMLDecodeError is a ValueError too, so syntax errors land here.
        raise _bad("--assumptions", f"{path}: {exc}") from None


def _load_edges(graph: Path | None, users: int | None, seed: int | None) -> list[Edge]:
    if graph is not None and (users is not None or seed is not None):
        raise _bad("--graph", "give either --graph or --users/--seed, not both")
    if graph is not None:
        try:
            return read_graph_csv(graph)
        except OSError as exc:
            raise _bad("--graph", f"cannot read {graph}: {exc.strerror}") from None
        except GraphFormatError as exc:
            raise _bad("--graph", f"{graph}: {exc}") from None
    if users is None:
        raise _bad("--graph", "give --graph FILE or --users N")
    try:
        return generate_graph(users, 0 if seed is None else seed)
    except ValueError as exc:
        raise _bad("--users", str(exc)) from None


def _bad(option: str, message: str) -> typer.BadParameter:
    # Printed as "feedloom: Invalid value for <option>: <message> ..." (cli/errors.py), exit 2.
    return typer.BadParameter(message, param_hint=option)


def _echo_json(data: object) -> None:
    # Plain echo, not rich: JSON must not be wrapped or colourised for a terminal.
    typer.echo(json.dumps(data, indent=2))
