"""Hand-made spring cases, each with its reason: every engine must get them right."""

from __future__ import annotations

SPRING, NO_SPRING = "spring", "no_spring"

# (landlord, peasant 1, peasant 2, verdict, reason)
HAND_MADE = [
    (
        "TTT 2 B",
        "7 J R",
        "3567QA2",
        SPRING,
        "single 2 and single B both fall to R: one of them must be TTT's kicker",
    ),
    (
        "5 AAAA B",
        "922R",
        "4TQKK",
        SPRING,
        "the rocket answers everything: only the one-play spring AAAA 5 B remains",
    ),
    ("3 56789TJ", "8JQ2", "2B", SPRING, "every split has an answerable play: 3 goes last"),
    (
        "AAAA 3 4 KKKK 6 7",
        "5555 8",
        "9",
        NO_SPRING,
        "a bomb beats both quadplexes, whatever their rank",
    ),
    ("AAAA 3 4 KKKK 6 7", "555 8", "9", SPRING, "without the bomb no one answers a quadplex"),
    ("334455 KK", "3 9", "4", SPRING, "334455 and KK are safe against single cards"),
    ("334455 KK", "2222", "4", NO_SPRING, "a peasant's bomb makes every non-bomb play unsafe"),
    ("334455 AAAA", "KKKK", "4", SPRING, "a higher bomb stays safe against a peasant's bomb"),
    ("334455 QQQQ", "KKKK", "4", NO_SPRING, "a lower bomb does not"),
    ("333444 5 6", "B R", "7", SPRING, "against the rocket only a one-play spring is left"),
    ("333444 5 6 8", "B R", "7", NO_SPRING, "two plays against the rocket: both unsafe"),
    ("2222 3", "B R", "7", NO_SPRING, "the rocket beats a bomb too"),
    (
        "333444 5 6 7",
        "999 JJQQKKAA",
        "789TJQKA",
        SPRING,
        "the 8-card 333444 5 6 is safe: the peasants' 8-card plays are of other kinds",
    ),
    ("KK 3", "A", "A", SPRING, "the peasants are never pooled: neither alone has a pair"),
    ("KK 2", "AA", "B", NO_SPRING, "two answerable plays, each answered by another peasant"),
    ("KK 2", "AA", "3", SPRING, "one answerable play: it goes last"),
]
