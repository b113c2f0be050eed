"""The rules themselves: ``cpsolver rules``, a short summary and how the rule sets differ."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import click

from cpsolver.cli.base import cli
from cpsolver.cli.options import common_options
from cpsolver.cli.output import emit_json
from cpsolver.io.rulefiles import bundled_rule_names, load_rules
from cpsolver.rules.cards import rank_symbol
from cpsolver.rules.ruleset import RuleSet, standard_rules

SUMMARY = """\
Dou Dizhu rules as cpsolver implements them (the full text: docs/RULES.md).

Cards: 54, four each of 3 4 5 6 7 8 9 T J Q K A 2 and the jokers B and R,
ranked low to high 3456789TJQKA2BR. The landlord holds 20, each peasant 17.

Plays (the rank that orders each in brackets):
  single 3 [3] | pair 33 [3] | triplet 333 [3]
  triplet_single 3334 [3] | triplet_pair 33344 [3]
  sequence 34567, five or more ranks within 3..A [top]
  pair_sequence 334455, three or more pairs [top]
  triplet_sequence 333444, two or more triplets [top]
  triplet_sequence_singles 333444 56, one distinct single per triplet [top triplet]
  triplet_sequence_pairs 333444 5566, one distinct pair per triplet [top triplet]
  bomb 3333 [3] | rocket BR | quadplex 3333 45 or 3333 4455 [3]

Beating: the rocket beats everything; a bomb beats every play but the rocket
and higher bombs; otherwise a play beats one of the same kind and shape (same
length, same number of triplets, same quadplex shape) and lower rank.

The spring: the landlord plays out every card and neither peasant can ever
answer; at most one of his plays may be answerable, and it goes last."""

# The fields as the rule files name them, and how each value reads.
_FIELDS: dict[str, str] = {
    "single_min_length": "sequences.single_min_length",
    "pair_min_length": "sequences.pair_min_length",
    "triplet_min_length": "sequences.triplet_min_length",
    "highest_chain_rank": "sequences.highest_rank",
    "most_singles_of_a_rank": "kickers.most_singles_of_a_rank",
    "most_singles_extending_the_chain": "kickers.most_singles_extending_the_chain",
    "pairs_distinct": "kickers.pairs_distinct",
    "both_jokers_as_kickers": "kickers.both_jokers",
    "quadplex_shapes": "quadplex.shapes",
}


def _value(name: str, value: Any) -> Any:
    """A field's value as the rule files write it."""
    if name == "highest_chain_rank":
        return rank_symbol(value)
    if name == "quadplex_shapes":
        return list(value)
    return value


def differences(rules: RuleSet, base: RuleSet) -> dict[str, tuple[Any, Any]]:
    """The fields in which ``rules`` differs from ``base``: file name -> (base's, its)."""
    found = {}
    for field in dataclasses.fields(RuleSet):
        if field.name not in _FIELDS:
            continue
        mine, theirs = getattr(base, field.name), getattr(rules, field.name)
        if mine != theirs:
            found[_FIELDS[field.name]] = (_value(field.name, mine), _value(field.name, theirs))
    return found


@cli.command("rules")
@common_options
def rules_command(as_json: bool, rules_name: str) -> None:
    """Print a short summary of the rules, and how each rule set differs from the standard one.

    The standard rules are docs/RULES.md; the bundled sets are models/*.toml.
    With --rules NAME|PATH, only that set's differences are listed.

    \b
    Examples:
      cpsolver rules
      cpsolver rules --rules rlcard --json
      cpsolver rules --rules mine.toml
    """
    base = standard_rules()
    chosen = [load_rules(rules_name)] if rules_name != "standard" else []
    sets = chosen or [load_rules(name) for name in bundled_rule_names()]
    report = {
        rules.name: {
            "description": rules.description,
            "digest": rules.digest,
            "differences": {
                field: {"standard": was, rules.name: now}
                for field, (was, now) in differences(rules, base).items()
            },
        }
        for rules in sets
    }
    if as_json:
        emit_json({"rule_sets": report})
        return
    click.echo(SUMMARY)
    click.echo("\nRule sets (--rules NAME or a TOML file of your own):")
    for rules in sets:
        changes = differences(rules, base)
        click.echo(f"  {rules.name}: {rules.description}")
        if not changes and rules.name != base.name:
            click.echo("    the same fields as standard")
        for field, (was, now) in changes.items():
            click.echo(f"    {field} = {json.dumps(now)} (standard: {json.dumps(was)})")
