"""Time the open-hand solver (issue 16) on the published puzzles, random positions and deals.

    python benchmarks/endgame.py [--only PART ...] [--runs 3] [--time-limit S]
        [--peer yunyan=PATH] [--peer wz=PATH] [--results FILE.jsonl]
        [--markdown FILE] [--interim FILE] [--deals 100] [--seed 2026]

Parts (``--only``, repeatable; default every one):

- ``puzzles``: the eight positions of WZ403809264/doudizhu_solver's README
  (two players, the first to move): our verdict, the published one, every
  winning move, the median solve time of ``--runs`` runs, the proof's build
  time, size and verify time (the proof as the text ``endgame --proof``
  writes: its build time includes writing that text, its verify time
  reading it back); the whole ``cpsolver endgame`` process as a user starts
  it (CPU of the child, median of ``--runs``, beside ``python -c pass``); each
  peer given by ``--peer`` on the same eight.
- ``level50``: the "expert level 50" puzzle after the first player's single 8
  and a pass, asked of us and of each peer (the YunyanDeng solver also
  interactively: its own answer, then a pass).
- ``random``: 10 seeded random two-player positions each of 14+13, 16+15,
  17+17 and 20+17 cards (dealt from one deck, the first to lead), 100 s each.
- ``small3``: 50 seeded three-player endgames, 1-8 cards a hand, landlord to lead.
- ``mid3``: ``--count`` seeded three-player positions of 12/10/10 cards (dealt
  from one deck), landlord to lead, 10 s each.
- ``deals3``: ``--deals`` seeded uniform 20/17/17 deals, 60 s each.
- ``deals3w``: the deals ``deals3`` left undecided, each solved by ``cpsolver
  endgame --workers 2 --timeout 300`` on every core (``--workers``,
  ``--workers-limit``; :mod:`endgame_workers`).
- ``proofs3``: the first ``--proofs`` of the 12/10/10 positions, each solved
  with its strategy read out, its proof written and verified (10 s each): the
  proofs' sizes, and verify's time against the solve's that made it.
- ``proofsdeals``: the same for the full deals ``deals3`` decided (60 s each);
  with ``--proof-memory MIB``, under that memory cap rather than the solver's
  default, each proof written to a ``.json.gz`` file as ``endgame --proof`` writes
  it and verified from it as ``verify`` reads it (a full deal's is gigabytes of
  text: give the run ``--memory-gb`` to match).

Outside ``puzzles`` and ``level50`` our time is the verdict's: the winning
strategy is not read out (``solve(..., strategy=False)``), as the peers give
none; where a proof is built, its readout and build are timed with it.

Times are CPU seconds: ``time.process_time`` for us (the solver runs in this
process) and the child's user + system time for a peer (``os.wait4``; it
includes the peer's start-up, a few ms). Time limits are CPU seconds too (a
profiling timer for us, ``RLIMIT_CPU`` for a peer), with a wall-clock
backstop of ``--wall-factor`` times the limit: on a loaded machine a wall
limit would measure the other processes. The whole run is pinned to one
core (``--cpu``), peers too. Every finished measurement is appended to ``--results`` (JSON
lines); a rerun with the same file skips what is there, so a long run can
be resumed. The tables are printed as markdown, and rewritten to
``--interim`` after every measurement.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import subprocess
import sys
from collections.abc import Callable, Iterator
from functools import partial
from pathlib import Path

from endgame_measure import CORE, RULES, ours, peer_record
from endgame_peers import Peer
from endgame_tables import (
    LEVEL_50_AFTER_8,
    PUZZLES,
    RANDOM_SIZES,
    Record,
    markdown,
    seconds,
    verdict,
)
from endgame_workers import decided_deals, undecided_deals, workers_record
from markers import replaced
from timed import children_end_with_us

from cpsolver.rules.cards import Hand
from cpsolver.rules.position import Position

PARTS = (
    "puzzles",
    "level50",
    "random",
    "small3",
    "mid3",
    "deals3",
    "deals3w",
    "proofs3",
    "proofsdeals",
)


def deal_hands(rng: random.Random, sizes: tuple[int, ...]) -> Position:
    """Hands of the given sizes dealt uniformly from one shuffled deck; hand 0 to lead."""
    deck = list(Hand.deck().ranks())
    rng.shuffle(deck)
    hands, start = [], 0
    for size in sizes:
        hands.append(Hand.from_ranks(deck[start : start + size]))
        start += size
    return Position(tuple(hands), 0)


def random_two(seed: int, sizes: tuple[int, int], count: int) -> list[Position]:
    """``count`` seeded two-player positions of the given sizes."""
    rng = random.Random(f"endgame two {sizes[0]}+{sizes[1]} {seed}")
    return [deal_hands(rng, sizes) for _ in range(count)]


def small_three(seed: int, count: int) -> list[Position]:
    """``count`` seeded three-player endgames, each hand 1-8 cards, landlord to lead."""
    rng = random.Random(f"endgame three small {seed}")
    return [deal_hands(rng, tuple(rng.randint(1, 8) for _ in range(3))) for _ in range(count)]


def middle_three(seed: int, count: int) -> list[Position]:
    """``count`` seeded three-player positions of 12/10/10 cards, landlord to lead."""
    rng = random.Random(f"endgame three mid {seed}")
    return [deal_hands(rng, (12, 10, 10)) for _ in range(count)]


def full_deals(seed: int, count: int) -> list[Position]:
    """``count`` seeded uniform 20/17/17 deals, landlord to lead."""
    rng = random.Random(f"endgame deals {seed}")
    return [deal_hands(rng, (20, 17, 17)) for _ in range(count)]


# -- the parts: each yields (part, key, solver, measure) still to be measured --

Job = tuple[str, str, str, Callable[[], Record]]


def jobs(
    options: argparse.Namespace, peers: list[Peer], earlier: dict[tuple[str, str, str], Record]
) -> Iterator[Job]:
    """Every measurement of the parts asked for, in order (``earlier``: those made before)."""
    limit, factor, peer_limit = options.time_limit, options.wall_factor, options.peer_limit
    mine = "ours" in options.solver
    if "puzzles" in options.only:
        for first, second, _ in PUZZLES:
            position = Position.parse([first, second])
            key = f"{first} v {second}"
            if mine:
                measure = partial(ours, position, limit, options.runs, True, factor)
                yield "puzzles", key, "ours", measure
            for peer in peers:
                yield "puzzles", key, peer.name, partial(peer_record, peer, position, peer_limit)
    if "level50" in options.only:
        first, second = PUZZLES[-1][:2]
        start = Position.parse([first, second])
        after = Position.parse(list(LEVEL_50_AFTER_8))
        key = f"{LEVEL_50_AFTER_8[0]} v {LEVEL_50_AFTER_8[1]}"
        if mine:
            yield "level50", key, "ours", partial(ours, after, limit, 1, True, factor)
        for peer in peers:
            yield "level50", key, peer.name, partial(peer_record, peer, after, peer_limit)
            asked = f"{first} v {second}: its move, then a pass"
            yield "level50", asked, peer.name, partial(peer_record, peer, start, peer_limit, 1)
    if "random" in options.only:
        for sizes in RANDOM_SIZES:
            for index, position in enumerate(random_two(options.seed, sizes, options.count)):
                key = f"{sizes[0]}+{sizes[1]} #{index}"
                if mine:
                    measure = partial(ours, position, limit or 100.0, wall_factor=factor)
                    yield "random", key, "ours", measure
                for peer in peers:
                    measure = partial(peer_record, peer, position, peer_limit)
                    yield "random", key, peer.name, measure
    if "small3" in options.only and mine:
        for index, position in enumerate(small_three(options.seed, 50)):
            measure = partial(ours, position, limit or 60.0, wall_factor=factor)
            yield "small3", f"#{index}", "ours", measure
    if "mid3" in options.only and mine:
        for index, position in enumerate(middle_three(options.seed, options.count)):
            measure = partial(ours, position, limit or 10.0, wall_factor=factor)
            yield "mid3", f"#{index}", "ours", measure
    if "deals3" in options.only and mine:
        for index, position in enumerate(full_deals(options.seed, options.deals)):
            if index < options.deal_start:
                continue
            measure = partial(ours, position, limit or 60.0, wall_factor=factor)
            yield "deals3", f"#{index}", "ours", measure
    if "deals3w" in options.only and mine:
        undecided = undecided_deals(earlier)
        for index, position in enumerate(full_deals(options.seed, options.deals)):
            if f"#{index}" in undecided:
                measure = partial(
                    workers_record, position, RULES, options.workers, options.workers_limit
                )
                yield "deals3w", f"#{index}", "ours", measure
    if "proofs3" in options.only and mine:
        for index, position in enumerate(middle_three(options.seed, options.proofs)):
            measure = partial(ours, position, limit or 10.0, 3, True, factor, every=False)
            yield "proofs3", f"#{index}", "ours", measure
    if "proofsdeals" in options.only and mine:
        decided = decided_deals(earlier)
        memory = None if options.proof_memory is None else options.proof_memory << 20
        for index, position in enumerate(full_deals(options.seed, options.deals)):
            if f"#{index}" in decided:
                measure = partial(
                    ours, position, limit or 60.0, 1, True, factor, every=False, memory=memory
                )
                yield "proofsdeals", f"#{index}", "ours", measure


# -- the run ----------------------------------------------------------------------


def load(path: Path | None) -> dict[tuple[str, str, str], Record]:
    """The measurements already in the results file."""
    found: dict[tuple[str, str, str], Record] = {}
    if path is not None and path.exists():
        for line in path.read_text().splitlines():
            if line.strip():
                entry = json.loads(line)
                found[(entry["part"], entry["key"], entry["solver"])] = entry["record"]
    return found


def _commit() -> str:
    """The commit measured (the working tree's at the start), recorded with each measurement."""
    try:
        found = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            cwd=Path(__file__).parent,
            check=False,
        )
    except OSError:
        return "(unknown commit)"
    return found.stdout.strip() or "(unknown commit)"


def merged(paths: list[Path]) -> dict[tuple[str, str, str], Record]:
    """The measurements in the results files of other runs (read anew each time)."""
    found: dict[tuple[str, str, str], Record] = {}
    for path in paths:
        found.update(load(path))
    return found


def parse_options(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--only", action="append", choices=PARTS, help="a part to run")
    parser.add_argument("--runs", type=int, default=3, help="solves per puzzle (median)")
    parser.add_argument(
        "--time-limit",
        type=float,
        help="CPU seconds per position (default: 100 s "
        "random, 60 s three-player, none for the puzzles)",
    )
    parser.add_argument(
        "--wall-factor",
        type=float,
        default=5.0,
        help="wall-clock backstop, in multiples of the CPU limit",
    )
    parser.add_argument("--peer-limit", type=float, default=100.0, help="CPU seconds per peer run")
    parser.add_argument(
        "--peer",
        action="append",
        default=[],
        metavar="NAME=PATH",
        help="a peer binary: yunyan=PATH or wz=PATH",
    )
    parser.add_argument(
        "--solver",
        action="append",
        help="run only this solver (ours or a peer's name; repeatable; default: all)",
    )
    parser.add_argument(
        "--merge",
        action="append",
        type=Path,
        default=[],
        help="a results file of another run to add to the tables (read only)",
    )
    parser.add_argument(
        "--count", type=int, default=10, help="random positions per size; 12/10/10 positions (mid3)"
    )
    parser.add_argument("--deals", type=int, default=100, help="full three-player deals")
    parser.add_argument("--workers", type=int, default=2, help="workers a deal (deals3w)")
    parser.add_argument(
        "--workers-limit", type=float, default=300.0, help="wall seconds a deal (deals3w)"
    )
    parser.add_argument(
        "--proofs", type=int, default=20, help="12/10/10 positions proven (proofs3)"
    )
    parser.add_argument(
        "--deal-start", type=int, default=0, help="skip the deals before this one (0-based)"
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--core",
        choices=("auto", "compiled", "python"),
        default="auto",
        help="the open-hand core ours runs on (default: the compiled one where built)",
    )
    parser.add_argument(
        "--cpu",
        type=int,
        default=min(os.sched_getaffinity(0)),
        help="the core to pin to; -1: do not pin",
    )
    parser.add_argument(
        "--memory-gb",
        type=float,
        default=4.0,
        help="address-space cap for this process and each peer (out of memory: undecided)",
    )
    parser.add_argument(
        "--proof-memory",
        type=int,
        metavar="MIB",
        help=(
            "the memory cap of the full deals' solves and strategies (proofsdeals), each proof "
            "written to a .json.gz file and verified from it (default: the solver's cap, "
            "the proof built and verified in memory)"
        ),
    )
    parser.add_argument("--results", type=Path, help="JSON lines of measurements (resumable)")
    parser.add_argument("--markdown", type=Path, help="write the tables here at the end")
    parser.add_argument(
        "--page",
        type=Path,
        help="rewrite the tables between this page's endgame markers (docs/speed.md)",
    )
    parser.add_argument(
        "--render",
        action="store_true",
        help="measure nothing: render the tables of --results (and --merge) only",
    )
    parser.add_argument("--interim", type=Path, help="rewrite the tables here as they grow")
    options = parser.parse_args(argv)
    options.only = options.only or list(PARTS)
    options.peer = [tuple(item.split("=", 1)) for item in options.peer]
    for item in options.peer:
        if len(item) != 2:
            parser.error("--peer takes NAME=PATH")
    return options


def main(argv: list[str] | None = None) -> None:
    """Run the parts asked for, resuming from ``--results``, and print the tables."""
    options = parse_options(argv)
    children_end_with_us()
    options.commit = _commit()
    CORE["name"] = options.core  # endgame_measure's: the core ours runs on
    cpu = None if options.cpu < 0 else options.cpu
    if cpu is not None:
        os.sched_setaffinity(0, {cpu})
    cap = int(options.memory_gb * 2**30)
    resource.setrlimit(resource.RLIMIT_AS, (cap, resource.getrlimit(resource.RLIMIT_AS)[1]))
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    options.solver = options.solver or ["ours", *(name for name, _ in options.peer)]
    peers = [
        Peer(name, path, cpu, options.wall_factor, cap)
        for name, path in options.peer
        if name in options.solver
    ]
    done = load(options.results)
    records = {**merged(options.merge), **done}
    for part, key, solver, measure in [] if options.render else jobs(options, peers, records):
        if (part, key, solver) in done and part not in ("puzzles", "level50"):
            continue
        record = {**measure(), "commit": options.commit}
        records[(part, key, solver)] = record
        print(
            f"{part} {key} {solver}: {verdict(record['winner'])} {seconds(record['seconds'])} s",
            file=sys.stderr,
            flush=True,
        )
        if options.results is not None:
            entry = {"part": part, "key": key, "solver": solver, "record": record}
            with options.results.open("a") as stream:
                stream.write(json.dumps(entry) + "\n")
        if options.interim is not None:
            view = {**merged(options.merge), **done, **records}
            options.interim.write_text(markdown(view, options) + "\n")
    tables = markdown({**merged(options.merge), **records}, options)
    print(tables)
    if options.markdown is not None:
        options.markdown.write_text(tables + "\n")
    if options.page is not None:
        options.page.write_text(on_page(options.page.read_text(), tables))


PAGE_START = "<!-- endgame: start (python benchmarks/endgame.py --page writes these tables) -->"
PAGE_END = "<!-- endgame: end -->"


def on_page(page: str, tables: str) -> str:
    """``page`` with the tables between its endgame markers replaced by ``tables``."""
    return replaced(page, PAGE_START, PAGE_END, tables)


if __name__ == "__main__":
    main()
