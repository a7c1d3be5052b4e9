"""Rule sets: a variant plus options, and the constants of each variant's layout.

The three variants (the exact rules; the reference engine in ``reference.py`` follows them):

* ``yukon``: one deck, 4 foundations, 7 columns. Column 1 holds one face-up card; column
  k (2..7) holds k-1 face-down cards then 5 face-up ones. A packet (any face-up card with
  every card on top of it) moves onto a column whose exposed card is one rank higher and of
  the opposite colour. Only a King-led packet enters an empty column. Only a column's
  exposed card goes to a foundation, one at a time, building up in suit from Ace to King.
  A face-down card left exposed turns face up as part of the move.
* ``russian``: as yukon, but the leading card must be one rank lower and of the same suit
  as the card it lands on.
* ``milligan``: two decks, 8 foundations (two per suit), 8 columns; column k holds k-1
  face-down cards then 1 face-up card, the other 68 cards form the stock. A stock deal puts
  one face-up card onto every column from left to right, empty ones included; the last
  deal reaches columns 1-4 only; no redeal. Tableau rules as yukon.

Option ``foundation_return``: a foundation's top card may move onto a column that can
legally receive it.
"""

from dataclasses import dataclass
from typing import Any

from solver.errors import ArgumentError, type_name

VARIANTS = ("yukon", "russian", "milligan")
# Other programs' names of a variant: PySolFC calls Milligan Yukon "Lexington Harp".
VARIANT_ALIASES = {"lexington-harp": "milligan"}


@dataclass(frozen=True)
class Rules:
    """A rule set: ``variant`` (one of VARIANTS, or an alias such as ``lexington-harp``, kept
    as the variant it names) and ``foundation_return`` (True or False); anything else is an
    ArgumentError."""

    variant: str = "yukon"
    foundation_return: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "variant", variant_named(self.variant))
        if not isinstance(self.foundation_return, bool):
            raise ArgumentError(
                "foundation_return", f" must be True or False, not {self.foundation_return!r}"
            )

    @property
    def decks(self) -> int:
        return 2 if self.variant == "milligan" else 1

    @property
    def column_count(self) -> int:
        return 8 if self.variant == "milligan" else 7

    @property
    def foundation_count(self) -> int:
        return 4 * self.decks

    @property
    def card_count(self) -> int:
        return 52 * self.decks

    @property
    def same_suit_building(self) -> bool:
        return self.variant == "russian"

    def as_dict(self) -> dict[str, Any]:
        """``variant`` and ``foundation_return``, as records and catalogues hold them."""
        return {"variant": self.variant, "foundation_return": self.foundation_return}

    def label(self) -> str:
        """Short form, for identifiers and progress lines: ``yukon`` or ``yukon+return``."""
        return self.variant + ("+return" if self.foundation_return else "")

    def describe(self) -> str:
        """Long form, for sentences: ``yukon`` or ``yukon with foundation return``."""
        return self.variant + (" with foundation return" if self.foundation_return else "")


def variant_named(name: object) -> str:
    """The variant ``name`` names (an alias such as ``lexington-harp`` too); ArgumentError else."""
    if not isinstance(name, str):
        raise ArgumentError("variant", f" must be a variant name or Rules, not {type_name(name)}")
    variant = VARIANT_ALIASES.get(name.lower(), name.lower())
    if variant not in VARIANTS:
        choices = ", ".join(VARIANTS + tuple(VARIANT_ALIASES))
        raise ArgumentError("variant", f" {name!r} is unknown (choose one of {choices})")
    return variant


def rules_named(rules: "Rules | str") -> Rules:
    """``rules`` as a Rules: a Rules as it is, a variant name (or alias) as its strict rule set."""
    return rules if isinstance(rules, Rules) else Rules(variant_named(rules))
