"""Rule sets as data: loading, validation, and the generator obeying every field."""

from __future__ import annotations

from pathlib import Path

import pytest
from brute_force import brute_answers, brute_plays
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st
from test_movegen import hands

from cpsolver.cli import cli
from cpsolver.io.rulefiles import bundled_rule_names, load_rules, parse_rules_toml, rules_from_toml
from cpsolver.rules.cards import ACE, RANK_SYMBOLS, Deal, Hand
from cpsolver.rules.errors import AmbiguousPlayError, RulesError
from cpsolver.rules.movegen import MoveGenerator, answers, can_answer, plays
from cpsolver.rules.plays import Kind, Play, classify, readings
from cpsolver.rules.ruleset import RuleSet, standard_rules
from cpsolver.spring.engines import ENGINES, solve_with

STANDARD_TEXT = (Path(__file__).parents[1] / "models" / "standard.toml").read_text()


def variant(**changes: str) -> str:
    """The standard file's text with some ``key = value`` lines replaced."""
    lines = []
    for line in STANDARD_TEXT.splitlines():
        key = line.split("=")[0].strip()
        lines.append(f"{key} = {changes.pop(key)}" if key in changes else line)
    assert not changes, f"no such keys: {changes}"
    return "\n".join(lines)


LOOSE = rules_from_toml(
    variant(
        name='"loose"',
        single_min_length="3",
        pair_min_length="2",
        triplet_min_length="3",
        highest_rank='"2"',
        most_singles_of_a_rank="4",
        most_singles_extending_the_chain="4",
        pairs_distinct="false",
        both_jokers="true",
        shapes='["pairs"]',
    ),
    "loose.toml",
)
STRICT = rules_from_toml(
    variant(name='"strict"', single_min_length="6", highest_rank='"K"', shapes="[]"),
    "strict.toml",
)


def test_standard_rules_are_those_of_rules_md() -> None:
    rules = standard_rules()
    assert (rules.single_min_length, rules.pair_min_length, rules.triplet_min_length) == (5, 3, 2)
    assert rules.highest_chain_rank == ACE
    assert (rules.most_singles_of_a_rank, rules.most_singles_extending_the_chain) == (1, 1)
    assert rules.pairs_distinct and not rules.both_jokers_as_kickers
    assert rules.quadplex_shapes == ("singles", "pairs")
    assert "standard" in bundled_rule_names()


def test_the_packaged_copy_is_the_models_file() -> None:
    packaged = Path(__file__).parents[1] / "cpsolver" / "models" / "standard.toml"
    assert packaged.read_text() == STANDARD_TEXT


def test_a_rules_file_loads_by_path(tmp_path: Path) -> None:
    path = tmp_path / "mine.toml"
    path.write_text(variant(name='"mine"', single_min_length="6"))
    assert load_rules(str(path)).single_min_length == 6


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("extra = 1\n" + variant(), "t.toml: unknown field 'extra'"),
        (variant() + "\n[kickers.more]\nx = 1", "t.toml: unknown field 'kickers.more.x'"),
        (
            STANDARD_TEXT.replace("both_jokers = false", ""),
            "t.toml: missing field 'kickers.both_jokers'",
        ),
        (
            variant(single_min_length='"5"'),
            "t.toml: field 'sequences.single_min_length' must be int, got str '5'",
        ),
        (
            variant(pair_min_length="true"),
            "t.toml: field 'sequences.pair_min_length' must be int, got bool True",
        ),
        (
            variant(pairs_distinct="1"),
            "t.toml: field 'kickers.pairs_distinct' must be bool, got int 1",
        ),
        (
            variant(most_singles_of_a_rank="5"),
            "t.toml: kickers.most_singles_of_a_rank = 5 is impossible: a rank has 1 to 4 cards",
        ),
        (
            variant(most_singles_extending_the_chain="2"),
            (
                "t.toml: kickers.most_singles_extending_the_chain = 2 is more than "
                "kickers.most_singles_of_a_rank = 1"
            ),
        ),
        (
            variant(single_min_length="1"),
            (
                "t.toml: sequences.single_min_length = 1 is impossible: "
                "a sequence up to A has 2 to 12 ranks"
            ),
        ),
        (
            variant(single_min_length="6", highest_rank='"7"'),
            (
                "t.toml: sequences.single_min_length = 6 is impossible: "
                "a sequence up to 7 has 2 to 5 ranks"
            ),
        ),
        (
            variant(highest_rank='"B"'),
            (
                "t.toml: sequences.highest_rank = 'B' is impossible: it must be one of "
                "3456789TJQKA2 (jokers are never in a sequence)"
            ),
        ),
        (
            variant(shapes='["triples"]'),
            "t.toml: quadplex.shapes: unknown shape 'triples' (known: singles, pairs)",
        ),
        (variant(shapes='["pairs", "pairs"]'), "t.toml: quadplex.shapes lists a shape twice"),
        (variant(shapes="[1]"), "t.toml: field 'quadplex.shapes' must be a list of strings"),
        ("name = ", "t.toml: not valid TOML: "),
    ],
)
def test_bad_rules_files_are_refused_with_the_reason(text: str, message: str) -> None:
    with pytest.raises(RulesError) as caught:
        rules_from_toml(text, "t.toml")
    assert str(caught.value).startswith(message)


def test_unknown_rule_set_names() -> None:
    with pytest.raises(RulesError, match="no rule set named 'nope' and no such file"):
        load_rules("nope")


# Every field changes what is a play, with no change to the generator's code.
@pytest.mark.parametrize(
    ("cards", "standard", "loose", "strict"),
    [
        ("345", None, Kind.SEQUENCE, None),  # single_min_length
        ("34567", Kind.SEQUENCE, Kind.SEQUENCE, None),
        ("3344", None, Kind.PAIR_SEQUENCE, None),  # pair_min_length
        ("333444", Kind.TRIPLET_SEQUENCE, None, Kind.TRIPLET_SEQUENCE),  # triplet_min_length
        ("JQKA2", None, Kind.SEQUENCE, None),  # highest_rank
        ("9TJQKA", Kind.SEQUENCE, Kind.SEQUENCE, None),
        ("333444555 667", None, Kind.TRIPLET_SEQUENCE_SINGLES, None),  # distinct
        ("333444555 6BR", None, Kind.TRIPLET_SEQUENCE_SINGLES, None),  # both_jokers
        ("666689", Kind.QUADPLEX, None, None),  # shapes
        ("66667799", Kind.QUADPLEX, Kind.QUADPLEX, None),
    ],
)
def test_each_field_changes_the_plays(
    cards: str, standard: Kind | None, loose: Kind | None, strict: Kind | None
) -> None:
    for rules, kind in ((standard_rules(), standard), (LOOSE, loose), (STRICT, strict)):
        found = [play.kind for play in readings(cards, rules)]
        assert found == ([kind] if kind else []), rules.name


def test_loose_rules_can_read_one_multiset_two_ways() -> None:
    cards = Hand.parse("333444555 666")
    expected = [
        (Kind.TRIPLET_SEQUENCE, "6"),
        (Kind.TRIPLET_SEQUENCE_SINGLES, "5"),  # 333444555 + 6 6 6
        (Kind.TRIPLET_SEQUENCE_SINGLES, "6"),  # 444555666 + 3 3 3
    ]
    assert [(p.kind, RANK_SYMBOLS[p.rank]) for p in readings(cards, LOOSE)] == expected
    with pytest.raises(AmbiguousPlayError) as caught:
        classify(cards, LOOSE)
    assert str(caught.value) == (
        "333444555666: reads as triplet_sequence (rank 6), triplet_sequence_singles (rank 5), "
        "triplet_sequence_singles (rank 6) under the loose rules"
    )
    assert len({p for p in plays(cards, LOOSE) if p.cards == cards}) == 3


def test_a_rule_set_without_quadplexes_answers_none() -> None:
    quadplex = Play.parse("3333 44 55")
    assert answers(Hand.parse("AAA KK QQ JJ"), quadplex, STRICT) == []
    assert not can_answer(Hand.parse("AAA KK QQ JJ"), quadplex, STRICT)


@pytest.mark.parametrize(
    "rules", [LOOSE, STRICT, load_rules("rlcard"), load_rules("douzero")], ids=lambda r: r.name
)
@settings(max_examples=60, deadline=None)
@given(hand=hands(1, 16), target_source=hands(1, 20), data=st.data())
def test_generator_equals_brute_force_under_other_rules(
    rules: RuleSet, hand: Hand, target_source: Hand, data: st.DataObject
) -> None:
    generated = plays(hand, rules)
    assert len(generated) == len(set(generated))
    assert set(generated) == brute_plays(hand, rules)
    target = data.draw(st.sampled_from(plays(target_source, rules)))
    found = answers(hand, target, rules)
    assert set(found) == brute_answers(hand, target, rules)
    assert can_answer(hand, target, rules) == bool(found)


def test_a_generator_is_built_from_a_rule_set_alone() -> None:
    mine = MoveGenerator(STRICT)
    assert mine.rules is STRICT
    assert Play.parse("345678", STRICT) in mine.plays(Hand.parse("345678"))


# The bundled profiles: each a rule set of its own, decided by both engines.


@pytest.mark.parametrize(
    ("deal", "verdicts", "reason"),
    [
        (
            ("333444 55", "66 9", "777888"),
            {"standard": "no_spring", "rlcard": "spring", "douzero": "spring"},
            "333444 55 is one play where kickers may repeat a rank; split, both halves are answered",
        ),
        (
            ("333444 5 6 7", "777 888 99", "8 T"),
            {"standard": "spring", "rlcard": "no_spring", "douzero": "no_spring"},
            "peasant 1's 777888 99 answers 333444 5 6 only where kickers may repeat a rank",
        ),
    ],
)
def test_spring_verdicts_differ_between_profiles_on_purpose(
    deal: tuple[str, str, str], verdicts: dict[str, str], reason: str
) -> None:
    position = Deal.parse(*deal)
    for profile, verdict in verdicts.items():
        for engine in ENGINES:
            assert solve_with(engine, position, load_rules(profile)).verdict.value == verdict, (
                profile,
                reason,
            )


def test_the_bundled_profiles() -> None:
    assert bundled_rule_names() == ["douzero", "rlcard", "standard"]
    rlcard, douzero = load_rules("rlcard"), load_rules("douzero")
    assert (rlcard.most_singles_of_a_rank, rlcard.most_singles_extending_the_chain) == (3, 2)
    assert (douzero.most_singles_of_a_rank, douzero.both_jokers_as_kickers) == (4, True)
    assert [p.kind for p in readings("333444 55", rlcard)] == [Kind.TRIPLET_SEQUENCE_SINGLES]
    assert readings("333444555666 777 8", rlcard) == []
    assert len(readings("333444555666 777 8", douzero)) == 2


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("extra = 1\n", "unknown field 'extra'"),
        ("", "missing field 'name'"),
        ("most_singles_of_a_rank = 9", "kickers.most_singles_of_a_rank = 9 is impossible"),
        ('single_min_length = "5"', "field 'sequences.single_min_length' must be int, got str '5'"),
    ],
)
def test_bad_rules_files_through_the_command_line(tmp_path: Path, text: str, message: str) -> None:
    path = tmp_path / "bad.toml"
    if text.startswith(("most_", "single_")):
        key = text.split(" =")[0]
        lines = [
            f"{key} = {text.split('= ')[1]}" if line.startswith(key + " ") else line
            for line in STANDARD_TEXT.splitlines()
        ]
        path.write_text("\n".join(lines))
    elif text:
        path.write_text(text + STANDARD_TEXT)
    else:
        path.write_text("")
    for command in (
        ["classify", "33"],
        ["solve", "--landlord", "3", "--peasant1", "4", "--peasant2", "5"],
    ):
        result = CliRunner().invoke(cli, [*command, "--rules", str(path)])
        assert result.exit_code == 2 and result.stdout == ""
        assert result.stderr.startswith(f"Error: {path}: ") and message in result.stderr
        assert result.stderr.count("\n") == 1


def test_verify_refuses_a_proof_made_under_other_rules(tmp_path: Path) -> None:
    proof = tmp_path / "proof.json"
    deal = ["--landlord", "333444 55", "--peasant1", "66 9", "--peasant2", "777888"]
    assert (
        CliRunner()
        .invoke(cli, ["solve", *deal, "--rules", "rlcard", "--proof", str(proof)])
        .exit_code
        == 0
    )
    refused = CliRunner().invoke(cli, ["verify", str(proof)])
    assert refused.exit_code == 1
    assert "the proof was made under the rules 'rlcard'" in refused.stdout
    assert "check it with --rules rlcard" in refused.stdout
    assert CliRunner().invoke(cli, ["verify", str(proof), "--rules", "rlcard"]).exit_code == 0


def test_the_precompiled_bundled_rules_are_current() -> None:
    from cpsolver.io.rulefiles import compiled_rules
    from cpsolver.rules.ruleset import COMPILED

    # Stale? Run: python -c "from cpsolver.io.rulefiles import write_compiled_rules as w; w()"
    assert compiled_rules() == COMPILED


def test_an_edited_bundled_text_is_parsed_not_taken_from_the_precompiled_table() -> None:
    from cpsolver.io.rulefiles import read_rules_text

    text, _ = read_rules_text("standard")
    edited = rules_from_toml(text.replace("single_min_length = 5", "single_min_length = 4"))
    assert edited.single_min_length == 4 and edited.digest != standard_rules().digest
    assert rules_from_toml(text) == parse_rules_toml(text)
