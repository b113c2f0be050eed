"""The bundled rule sets, parsed ahead; written by ``rules.write_compiled_rules()``."""

from typing import Any

COMPILED: dict[str, dict[str, Any]] = {
    "aceae7372e9b42b566b4abce32c61b0b5feb5f4f07d868a4aec34219bd13c0bb": {
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
    "c03bab083f19869fc918cbdb45a4ad57b47dcab7945ca8d24f51ae84e6293c2e": {
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
    "9967c8264a1ddb6fdd7e7b4737948da11dbafecda801896c967558627245ea3e": {
        "name": "standard",
        "description": "RULES.md: the English and German rule texts, with the decisions written down there",
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
