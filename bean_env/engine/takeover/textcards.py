"""The 18 text cards of `hostile_takeover` (TXT-1..18) and the payment scales they touch.

Terms:
- *text card*: a second deck, one card of each kind, coded 0..17 for TXT-1..18 (``TXT_*`` below).
  Held text cards are private; how many a player holds is public (HT-2).
- *real bean*: a bean card on a field, as opposed to the Jokerbohne lying there (TXT-6).
- *field size*: real beans plus 1 if the Jokerbohne lies on the field; it is the count used for the
  beanometer, strength, the one-card rule and pizzas (TXT-6).
- *meter type*: the type whose beanometer pays a harvest: the field's type, or with Chemiekeule the type
  of another field (TXT-2).
- *Schnittbohne scales* (CARD-3): in play a harvest pays text cards and coins; the final harvest pays
  coins only.

Everything here is a pure function of plain values, shared by the rules module and tests.
"""
from __future__ import annotations

from ...cards import BLACK_EYED, BLUE, CHILI, CUTTING, GARDEN, GREEN, RED, SOY, STINK, coins_for, handicap
from ..actions import TEXT_NAMES

(TXT_SWAP_FIELDS, TXT_CHEMIEKEULE, TXT_EXTRAKARTE, TXT_PLAY_AT_END, TXT_SWAP_HANDS, TXT_JOKER, TXT_MIGHTY,
 TXT_MUTA, TXT_PIRATE, TXT_BOHNBASTICA, TXT_BOHNOTONI, TXT_CALZBOHNE, TXT_DIABOHNO, TXT_SAMENHANDEL,
 TXT_SEVEN, TXT_STRONG, TXT_VARIABLE, TXT_EXTRA_HARVEST) = range(18)

NUM_TEXTS = len(TEXT_NAMES)
PIZZAS = (TXT_BOHNBASTICA, TXT_BOHNOTONI, TXT_CALZBOHNE, TXT_DIABOHNO)

# HT types in increasing handicap value (CARD-4): the Mutabohne sequence (TXT-8).
MUTATION_ORDER = (CUTTING, GARDEN, RED, BLACK_EYED, SOY, GREEN, STINK, CHILI, BLUE)
_NEXT = {t: MUTATION_ORDER[i + 1] for i, t in enumerate(MUTATION_ORDER[:-1])}
JOKER_TYPES = (CUTTING, CHILI, BLUE)       # TXT-6
NO_CHEMISTRY = (GARDEN, RED)              # TXT-2: these beanometers cannot be borrowed
DIABOHNO_TYPES = (CUTTING, GARDEN, RED, BLACK_EYED)  # TXT-13


def next_type(bean: int) -> int:
    """The type with the next higher handicap value (TXT-8), or -1 for Blue."""
    return _NEXT.get(bean, -1)


def cutting_in_play(n: int) -> tuple[int, int]:
    """(coins, text cards) for harvesting ``n`` Schnittbohne during play (CARD-3)."""
    if n <= 1:
        return 0, 0
    if n == 2:
        return 0, 1
    if n <= 4:
        return 0, 2
    if n <= 6:
        return 1, 2
    return 2, 2


def cutting_final(n: int) -> int:
    """Coins for ``n`` Schnittbohne in the final harvest (CARD-3)."""
    if n <= 3:
        return 0
    if n <= 5:
        return 1
    return min(n - 4, 4)


def meter_value(meter: int, n: int, final: bool) -> tuple[int, int]:
    """(coins, text cards) a harvest of ``n`` cards pays by the beanometer of ``meter``."""
    if meter == CUTTING:
        return (cutting_final(n), 0) if final else cutting_in_play(n)
    return coins_for(meter, n), 0


def strength(size: int, bean: int) -> tuple[int, int]:
    """A field's strength key (HT-11): larger is stronger (more cards, then lower handicap value)."""
    return size, -handicap(bean)


def bohnbastica(total: int) -> int:
    """TXT-10 bonus for ``total`` cards on all of the player's fields."""
    return 3 if total >= 17 else 2 if total >= 14 else 1 if total >= 12 else 0


def bohnotoni(meter: int, size: int, final: bool) -> int:
    """TXT-11: the field's value (5, 6 or 7) if it would be worth 4 with 1/2/3 cards fewer, else 0."""
    for fewer, value in ((3, 7), (2, 6), (1, 5)):
        if size - fewer >= 0 and meter_value(meter, size - fewer, final)[0] >= 4:
            return value
    return 0


def calzbohne(sizes: list[int], two_players: bool) -> int:
    """TXT-12 bonus when every field of the player holds enough cards (sizes of all their fields)."""
    low = min(sizes)
    tiers = (4, 5, 6) if two_players else (3, 4, 5)
    return sum(1 for t in tiers if low >= t)


def diabohno(count: int) -> int:
    """TXT-13 bonus for ``count`` Schnitt + Garden + Red + Black-eyed cards on the player's fields."""
    return 3 if count >= 11 else 2 if count >= 9 else 1 if count >= 7 else 0

