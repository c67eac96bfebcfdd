"""Short rules summaries per variant, written for a language model's system prompt (rule IDs in
brackets point to docs/rules-decisions.md and the rules docs)."""
from __future__ import annotations

COMMON = """\
Bean types have beanometers: harvesting a field of n cards pays the coins of the largest beanometer
entry <= n; the coin cards leave the field, the rest are discarded (COM-5). A field holds one type
only. A field with exactly one card may be harvested only if none of your fields holds two or more
(COM-6). Your hand is a queue: you plant from the front and new cards go to the back; never reorder it
(COM-1). A card that must be planted but fits no field forces you to harvest a field first (COM-4).
At the end every field is harvested (COM-10); coins count, hand cards are worth nothing."""

SUMMARIES: dict[str, str] = {
    "bohnanza": """\
Bohnanza (3-7 players). Your turn: 1) plant the front hand card, then optionally the next one
(BASE-5); 2) two cards are turned up into the trade area; you may keep them, and trade or donate with
the others: you (the active player) may offer to one player or to all, the others may offer only to
you; an offer gives cards (hand cards by position, or trade-area cards) and wants bean types; wanting
nothing is a gift (TRADE-1..7); 3) everyone plants the cards they got and the kept trade-area cards
(BASE-7); 4) you draw 3 cards. Harvesting and buying a 3rd field (3 coins) are free actions at any of
your decision points (BASE-9). The game ends when the deck runs out for the last time (BASE-10). Most
coins wins; a tie goes to the most hand cards (BASE-11).""",
    "bean_duel": """\
Bean Duel (2 players). Your turn: 1) plant or discard each card your opponent left face up (DUEL-3);
2) plant the front hand card, optionally the next, then you may discard one hand card (DUEL-4);
3) turn up three cards, discard-pile cards of a matching type join them; plant any of them, the rest
stay face up for your opponent (DUEL-5); 4) draw 2 (DUEL-6). Harvest and buying a 3rd field (3 coins)
are free actions on your own turn only (DUEL-2). The game ends at the first run-out of the deck. Most
coins wins (ties: most hand cards).""",
    "al_cabohne": """\
Al Cabohne (2 players against the bean mafia). Bosses Al (harvests at 3 coins) and Don (at 2) each grow
one type and harvest automatically into the mafia treasury (MAF-1, MAF-2). Your turn: 1) plant or
discard the cards the opponent left face up; 2) for each boss growing a type on one of your fields,
give him one card of that field (harvest in time to avoid it, MAF-6); 3) plant the front hand card,
optionally the next; 4) turn up three cards (cards of a boss's type go to him); 5) place face-up stacks
on your fields or on bosses, gift hand cards to the mafia, fill empty bosses (MAF-9); 6) draw 2.
You beat the mafia only with strictly more coins than its treasury (MAF-13). 3rd field: 4 coins.""",
    "bean_solitaire": """\
Bean Solitaire (1 player against the mafia: Al at 3 coins, Don at 2, Joe at 1). You have 3 fields.
Your turn: 1) each boss growing a type on your fields takes one card of it (harvest in time, MAF-6);
2) plant the front hand card, optionally the next; 3) turn up three cards (a boss's type goes to him);
4) place face-up stacks on your fields or bosses and gift hand cards; empty bosses must be filled
(MAF-9); 5) draw 2. The game ends at the first run-out. Score = your coins - 2 x mafia coins (MAF-13).""",
    "hostile_takeover": """\
Hostile Takeover (2-5 players). Your hand has no order; there is no trading (HT-3). On your turn take
actions in any order: a) play cards of one type onto one field, b) merge a field onto another of the
same type, c) turn up the deck's top card onto an empty field, d) harvest one field (once per turn),
e) take over another player's field in the same position with a stronger field (more cards, or equal
count and a rarer type), then end the turn and draw up to 5. Other players may copy each action
(HT-13) and defend a takeover with a text card (HT-12). Text cards give special actions (TXT-1..18).
Score: 100 x coins + 10 x unused text cards (HT-14).""",
}


def rules_summary(variant: str) -> str:
    """The summary of ``variant`` followed by the rules common to every variant."""
    if variant not in SUMMARIES:
        raise ValueError(f"unknown variant {variant!r}; allowed: {', '.join(sorted(SUMMARIES))}")
    return SUMMARIES[variant] + "\n" + COMMON
