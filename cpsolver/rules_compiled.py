"""The bundled rule sets, parsed ahead; written by ``rules.write_compiled_rules()``."""

from typing import Any

COMPILED: dict[str, dict[str, Any]] = {
    "608904f3a062c777c75dc731a9cd6c2f0bc0c1af796b224e27631f45234bd5b6": {
        "name": "douzero",
        "description": "DouZero 1.1.0: single kickers are any cards outside the core, both jokers included",
        "single_min_length": 5,
        "pair_min_length": 3,
        "triplet_min_length": 2,
        "highest_chain_rank": 11,
        "most_singles_of_a_rank": 4,
        "most_singles_extending_the_chain": 4,
        "pairs_distinct": True,
        "both_jokers_as_kickers": True,
        "quadplex_shapes": ["singles", "pairs"],
        "digest": "d927daa21c3ca4ae",
    },
    "8ce5c807aa3b98057086ce621edb20e4e24b5f8b8d6ee0cd88a4c57ef58f0fb6": {
        "name": "rlcard",
        "description": "RLCard 1.2.0: single kickers may repeat a rank (at most 3, at most 2 beside the chain)",
        "single_min_length": 5,
        "pair_min_length": 3,
        "triplet_min_length": 2,
        "highest_chain_rank": 11,
        "most_singles_of_a_rank": 3,
        "most_singles_extending_the_chain": 2,
        "pairs_distinct": True,
        "both_jokers_as_kickers": False,
        "quadplex_shapes": ["singles", "pairs"],
        "digest": "a25915f1bf89ed2c",
    },
    "3dbc889d52d4a8ff443da7f7c7d08e385df283f1e2e18558ffaf38da41a2993e": {
        "name": "standard",
        "description": "docs/RULES.md: the English and German rule texts, with the decisions written down there",
        "single_min_length": 5,
        "pair_min_length": 3,
        "triplet_min_length": 2,
        "highest_chain_rank": 11,
        "most_singles_of_a_rank": 1,
        "most_singles_extending_the_chain": 1,
        "pairs_distinct": True,
        "both_jokers_as_kickers": False,
        "quadplex_shapes": ["singles", "pairs"],
        "digest": "bedbf32deade5785",
    },
}
