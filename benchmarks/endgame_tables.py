"""The benchmark's published puzzles and its markdown tables (see ``endgame.py``).

Every table is built from the measurements alone (``(part, key, solver) ->
record``), so one run can add another's results (``--merge``).
"""

from __future__ import annotations

import argparse
import statistics
from typing import Any

from endgame_workers import workers_table

from cpsolver.endgame.budget import DEFAULT_MEMORY

# (first, second, published winner: 0 the first player); their 0/Y/Z are our T/B/R.
PUZZLES = [
    ("KK5543", "225543", 0),
    ("RA54333", "B222KQ", 0),
    ("2KKTT77554", "AA8", 1),
    ("RKKQJT9876633", "AAKQJT987", 0),
    ("2AKT96554", "BKJT8854", 0),
    ("RBAAKKQTT99", "2222JJTT", 0),
    ("B2AK998553", "RQQJJT953", 0),
    ("RAQQJJT999844", "B22AAT886633", 0),
]
LEVEL_50_AFTER_8 = ("RAQQJJT99944", "B22AAT886633")  # the first player's 8, then a pass
RANDOM_SIZES = [(14, 13), (16, 15), (17, 17), (20, 17)]
Record = dict[str, Any]


def seconds(value: float | None) -> str:
    """Seconds for a table: to 0.1 ms below 0.1 s, to 1 ms below 10 s, then tenths; or a dash."""
    if value is None:
        return "–"
    if value < 0.1:
        return f"{value:.4f}"
    return f"{value:.3f}" if value < 10 else f"{value:.1f}"


def verdict(winner: int | None) -> str:
    """A two-player verdict in words."""
    return {0: "first", 1: "second", None: "unknown"}[winner]


def puzzle_table(records: dict[tuple[str, str, str], Record], solvers: list[str]) -> list[str]:
    """The eight published puzzles: ours with proofs, then each peer."""
    lines = [
        "| first | second | published | ours | winning moves | solve s | all moves s "
        "| proof build s | proof nodes | proof KB | verify s | `cpsolver endgame` process s |"
        + "".join(f" {name} |" for name in solvers),
        "|" + "---|" * (12 + len(solvers)),
    ]
    for first, second, published in PUZZLES:
        key = f"{first} v {second}"
        mine = records.get(("puzzles", key, "ours"))
        if mine is None:
            continue
        cells = [
            first,
            second,
            verdict(published),
            verdict(mine["winner"]) + ("" if mine.get("verified", True) else " (proof FAILS)"),
            " ".join(mine["moves"]) or "–",
            seconds(mine["seconds"]),
            seconds(mine.get("all_seconds")),
            seconds(mine.get("proof_seconds")),
            str(mine.get("proof_nodes", "–")),
            f"{mine['proof_kb']:.0f}" if "proof_kb" in mine else "–",
            seconds(mine.get("verify_seconds")),
            seconds(mine.get("process_seconds")),
        ]
        for name in solvers:
            cells.append(peer_cell(records.get(("puzzles", key, name))))
        lines.append("| " + " | ".join(cells) + " |")
    return lines + _puzzle_goals(records, solvers)


def _puzzle_goals(records: dict[tuple[str, str, str], Record], solvers: list[str]) -> list[str]:
    """The issue's two goals on the puzzles: solve + proof build below each peer's whole run,
    and verify no slower than the solve + build that made the proof."""
    made: dict[str, float] = {}
    ratios, verified = [], []
    for first, second, _ in PUZZLES:
        mine = records.get(("puzzles", f"{first} v {second}", "ours"))
        if mine and mine.get("seconds") is not None and "proof_seconds" in mine:
            made[f"{first} v {second}"] = mine["seconds"] + mine["proof_seconds"]
            ratios.append(mine["verify_seconds"] / made[f"{first} v {second}"])
            verified.append(mine)
    if not made:
        return []
    said = []
    floor = [r["interpreter_seconds"] for r in verified if "interpreter_seconds" in r]
    installs = sorted({r["install"] for r in verified if "install" in r})
    for name in solvers:
        theirs = {k: records.get(("puzzles", k, name), {}).get("seconds") for k in made}
        timed = [k for k, t in theirs.items() if t is not None]
        below = sum(made[k] < theirs[k] for k in timed)  # type: ignore[operator]
        said.append(f"solve + proof build below {name}'s whole run on {below} of {len(timed)}")
        process = {k: records[("puzzles", k, "ours")].get("process_seconds") for k in timed}
        both = [k for k in timed if process[k] is not None]
        if both:
            below = sum(process[k] < theirs[k] for k in both)  # type: ignore[operator]
            said.append(
                f"the whole `cpsolver endgame` process below {name}'s on {below} of {len(both)}"
                + (
                    f" (a{'n' if installs == ['editable'] else ''} {' and '.join(installs)} install;"
                    f" Python's own start-up, `python -c pass`: {statistics.median(floor):.3f} s)"
                    if floor
                    else ""
                )
            )
    said.append(
        f"verify ÷ (solve + build): median {statistics.median(ratios):.1f}, "
        f"at most 1 on {sum(r <= 1 for r in ratios)} of {len(ratios)}{_checkers(verified)}"
    )
    return ["", "; ".join(said) + "."]


def _checkers(records: list[Record]) -> str:
    """Which strategy checker verify ran on (records from before the compiled one name none)."""
    names = sorted({record.get("checker", "python") for record in records})
    return f" ({' and '.join(names)} checker)" if names else ""


def _proof_size(record: Record) -> str:
    """A proof's KB, and its file's where it was written gzip-compressed."""
    size = f"{record['proof_kb']:,.0f}"
    return f"{size} ({record['proof_gz_kb']:,.0f} gz)" if "proof_gz_kb" in record else size


def proofs_table(records: dict[tuple[str, str, str], Record], of: str = "proofs3") -> list[str]:
    """Each position proven in part ``of``: its proof's size, and verify's time against the solve's."""
    lines = [
        (
            "| position | winner | solve s | proof build s | search nodes | proof nodes | proof KB "
            "| verify s | verify ÷ (solve + build) |"
        ),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    ratios, verified, sizes = [], [], []
    found = [(k, r) for (part, k, s), r in records.items() if part == of and s == "ours"]
    for key, record in sorted(found, key=lambda item: int(item[0].lstrip("#"))):
        if record["winner"] is None or "verify_seconds" not in record:
            stopped = record.get("strategy_stopped")
            within = f"the {stopped} limit" if stopped in ("time", "memory") else "the limits"
            # A proof's part times the solve and the strategy's readout together: past the
            # CPU limit, either may have been left unfinished.
            why = (
                "no strategy within the CPU limit"
                if record["winner"] is None
                else f"no strategy within {within}"
            )
            lines.append(f"| {key} | {why} | | | | | | | |")
            continue
        made = record["seconds"] + record["proof_seconds"]
        ratios.append(record["verify_seconds"] / made)
        verified.append(record)
        searched = record.get("search_nodes")
        if searched:
            sizes.append(record["proof_nodes"] / searched)
        lines.append(
            f"| {key} | {'landlord' if record['winner'] == 0 else 'peasants'}"
            + ("" if record["verified"] else " (proof FAILS)")
            + f" | {seconds(record['seconds'])} | {seconds(record['proof_seconds'])} "
            f"| {f'{searched:,}' if searched else '–'} "
            f"| {record['proof_nodes']:,} | {_proof_size(record)} "
            f"| {seconds(record['verify_seconds'])} | {ratios[-1]:.1f} |"
        )
    if ratios:
        lines += [
            "",
            (
                f"verify ÷ (solve + build): median {statistics.median(ratios):.1f}, "
                f"{sum(r <= 1 for r in ratios)} of {len(ratios)} at most 1{_checkers(verified)}."
            ),
        ]
    if len(sizes) > 1:
        lines += [
            "",
            (
                f"Proof nodes ÷ search nodes (the positions the search visited to its verdict): "
                f"median {statistics.median(sizes):.2f}, from {min(sizes):.2f} to {max(sizes):.2f}"
                f" over {len(sizes)} proofs."
            ),
        ]
    return lines


def peer_cell(record: Record | None) -> str:
    """A peer's verdict, move and time in one cell."""
    if record is None:
        return "not run"
    if record["winner"] is None:
        return f"no answer in {record['wall']:.0f} s"
    move = f" ({record['moves'][0]})" if record["moves"] else ""
    return f"{verdict(record['winner'])}{move} {seconds(record['seconds'])} s"


def level50_table(records: dict[tuple[str, str, str], Record]) -> list[str]:
    """What each solver says after the first player's single 8 and a pass."""
    lines = ["| asked | solver | answer | s |", "|---|---|---|---|"]
    for (part, key, solver), record in records.items():
        if part != "level50":
            continue
        if solver == "ours":
            answer = f"{verdict(record['winner'])} player wins"
            if record["moves"]:
                answer += f"; winning moves {' '.join(record['moves'])}"
            if "verified" in record:
                answer += "; proof verified" if record["verified"] else "; proof FAILS"
        else:
            answer = " / ".join(f"`{line}`" for line in record["said"]) or "no answer"
        lines.append(f"| {key} | {solver} | {answer} | {seconds(record['seconds'])} |")
    return lines


# Who "side 0" is in each part, named as every command names it.
SIDE_ZERO = {
    "random": "first player wins",
    "small3": "landlord wins",
    "mid3": "landlord wins",
    "deals3": "landlord wins",
}


def summary_table(
    records: dict[tuple[str, str, str], Record], part: str, title: str, limit: str
) -> list[str]:
    """Per group (the key before ``#``) and solver: decided, median and max seconds.

    The median counts the undecided as slower than any decided. On a loaded
    machine the wall-clock backstop may end a run before its CPU limit
    (``limit``): the CPU time the undecided ones had is shown, least to most.
    """
    groups: dict[tuple[str, str], list[Record]] = {}
    verdicts: dict[str, int | None] = {}
    for (kind, key, solver), record in records.items():
        if kind == part:
            groups.setdefault((key.split("#")[0].strip() or "all", solver), []).append(record)
            if solver == "ours":
                verdicts[key] = record["winner"]
    lines = [
        (
            f"| {title} | solver | done | decided | {SIDE_ZERO[part]} | median s | max s (decided) "
            "| CPU s given to the undecided | disagree |"
        ),
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (group, solver), found in sorted(groups.items(), key=_group_order):
        times = sorted(r["seconds"] if r["winner"] is not None else float("inf") for r in found)
        decided = [r for r in found if r["winner"] is not None]
        median = statistics.median(times)
        keyed = [
            (k, r)
            for (kind, k, s), r in records.items()
            if kind == part and s == solver and (k.split("#")[0].strip() or "all") == group
        ]
        disagree = sum(
            1
            for k, r in keyed
            if r["winner"] is not None
            and verdicts.get(k) is not None
            and verdicts[k] != r["winner"]
        )
        lines.append(
            f"| {group} | {solver} | {len(found)} | {len(decided)}/{len(found)} "
            f"| {sum(r['winner'] == 0 for r in decided)} "
            f"| {'undecided' if median == float('inf') else seconds(median)} "
            f"| {seconds(max(r['seconds'] for r in decided)) if decided else '–'} "
            f"| {_given([r for r in found if r['winner'] is None])} "
            f"| {disagree if solver != 'ours' else ''} |"
        )
    return lines


def _given(undecided: list[Record]) -> str:
    """The least and most CPU seconds the undecided runs had, or a dash."""
    spent = sorted(r["cpu"] if "cpu" in r else r["runs"][0] for r in undecided)
    if not spent:
        return "–"
    return seconds(spent[0]) if len(spent) == 1 else f"{seconds(spent[0])}–{seconds(spent[-1])}"


def _runs(records: dict[tuple[str, str, str], Record]) -> str:
    """How many solves each puzzle's median is of."""
    found = {
        len(r["runs"]) for (part, _, s), r in records.items() if part == "puzzles" and s == "ours"
    }
    return "/".join(str(n) for n in sorted(found))


def _limits(records: dict[tuple[str, str, str], Record], part: str, default: float) -> str:
    """The CPU limits the part's measurements were made under (records before the limit
    was recorded were made under the default)."""
    found = sorted(
        {r.get("limit") or default for (kind, _, _), r in records.items() if kind == part}
    )
    return "/".join(f"{limit:g}" for limit in found) or f"{default:g}"


def _group_order(item: tuple[tuple[str, str], list[Record]]) -> tuple[int, int, str]:
    """Groups by card count (sizes like 14+13), ours before the peers."""
    (group, solver), _ = item
    cards = sum(int(n) for n in group.split("+")) if group[0].isdigit() else 0
    return cards, solver != "ours", solver


def markdown(records: dict[tuple[str, str, str], Record], options: argparse.Namespace) -> str:
    """Every table of the parts measured so far."""
    solvers = sorted({s for part, _, s in records if part == "puzzles" and s != "ours"})
    counted: dict[str, int] = {}
    for record in records.values():
        commit = record.get("commit", "unrecorded")
        counted[commit] = counted.get(commit, 0) + 1
    commits = ", ".join(f"{commit} ({n} measurements)" for commit, n in sorted(counted.items()))
    out = [
        (
            f"cpsolver {commits}. CPU seconds (time.process_time; peers: the child's "
            f"user+system time), each run pinned to one core, seed {options.seed}; "
            "a shared machine: expect noise."
        ),
        "",
    ]
    parts = {part for part, _, _ in records}
    random_limit = _limits(records, "random", options.time_limit or 100.0)
    small_limit = _limits(records, "small3", options.time_limit or 60.0)
    middle_limit = _limits(records, "mid3", options.time_limit or 10.0)
    deal_limit = _limits(records, "deals3", options.time_limit or 60.0)
    if "puzzles" in parts:
        out += [
            f"### The eight published puzzles (solve: median of {_runs(records)} runs)",
            "",
            *puzzle_table(records, solvers),
            "",
        ]
    if "level50" in parts:
        out += ["### Level 50 after the first player's single 8 and a pass", ""]
        out += [*level50_table(records), ""]
    if "random" in parts:
        out += [f"### Random two-player positions (CPU limit {random_limit} s each)", ""]
        out += [*summary_table(records, "random", "cards", random_limit), ""]
    if "small3" in parts:
        out += [
            f"### Three-player endgames, 1-8 cards a hand, landlord to lead (CPU limit {small_limit} s)",
            "",
        ]
        out += [*summary_table(records, "small3", "positions", small_limit), ""]
    if "mid3" in parts:
        out += [
            f"### Three-player positions 12/10/10, landlord to lead (CPU limit {middle_limit} s each)",
            "",
        ]
        out += [*summary_table(records, "mid3", "positions", middle_limit), ""]
    if "deals3" in parts:
        out += [
            f"### Three-player full deals 20/17/17, landlord to lead (CPU limit {deal_limit} s each)",
            "",
        ]
        out += [*summary_table(records, "deals3", "deals", deal_limit), ""]
    if "deals3w" in parts:
        out += [
            "### The full deals one core left undecided, on several (wall-clock limit each)",
            "",
            *workers_table(records),
            "",
        ]
    if "proofs3" in parts:
        proof_limit = _limits(records, "proofs3", options.time_limit or 10.0)
        out += [
            f"### Proofs of 12/10/10 positions (CPU limit {proof_limit} s to solve each)",
            "",
        ]
        out += [*proofs_table(records), ""]
    if "proofsdeals" in parts:
        proof_limit = _limits(records, "proofsdeals", options.time_limit or 60.0)
        caps = sorted(
            {r.get("memory_mb") for (part, _, _), r in records.items() if part == "proofsdeals"},
            key=lambda cap: cap or 0,
        )
        memory = " or ".join(
            f"the default memory cap ({DEFAULT_MEMORY >> 20:,} MiB)"
            if cap is None
            else f"a memory cap of {cap:,} MiB"
            for cap in caps
        )
        out += [
            (
                "### Proofs of the full deals decided above "
                f"(CPU limit {proof_limit} s to solve each, under {memory}, "
                "the strategy read out)"
            ),
            "",
        ]
        out += [*proofs_table(records, "proofsdeals"), ""]
    return "\n".join(out)
