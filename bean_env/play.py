"""Terminal play (``bean-env play``): a person plays one seat against agents, by typed commands.

The screen shows what the person's seat may know (INFO-1..3; drawn from the masked state and the
masked history, see ``bean_env.render``): every seat's fields, coins and hand (unseen cards as ``?``),
the discard top, deck size and run-outs, the trade area, the offer, the beanometers of the types in
play, the person's hand in order, their text cards with their effects, the decision explained in plain
words, and the legal actions labelled with card names.

Commands (``help`` or ``?`` lists them): a number from the list or an action's text; ``offer TARGET
give CARDS want CARDS`` builds and submits a whole offer through the legal sub-decisions, or as the one
whole-offer action where offers are whole actions (TRADE-1/2, AGT-2), and says why it cannot be made
(read by ``bean_env.text.offer``, shared with the text/LLM interface); ``undo`` takes back the last step
of an offer being built (free: nothing has been shown yet); ``q`` abandons the game. ``--save FILE`` writes
the game record.
"""
from __future__ import annotations

import json
import re
from pathlib import Path
from typing import TextIO

from .cards import CODE, NAMES, TYPES
from .engine.actions import ALL, TEXT_NAMES, Action, Kind, describe
from .engine.mafia import BOSS_NAMES
from .engine.views import mask_history
from .render import card_name, field_text, hand_text, offer_text, scores_text
from .text.observation import listed_actions, whole_offer_note
from .text.offer import OfferError, plan_offer, step_reason

# -- plain words ---------------------------------------------------------------------------------------------
DECISIONS: dict[str, str] = {
    "plant": "you must plant the front card of your hand on a field (COM-1)",
    "plant_optional": "you may plant the next front card of your hand, or stop planting",
    "harvest_window": "the deck is about to run out: harvest fields now if you want to, then done (BASE-9)",
    "offer": "your trading slot: start an offer, pass, or (active player) keep a trade-area card or end "
             "trading (TRADE-1..3)",
    "compose": "you are building an offer: add cards you give and cards you want, then submit "
               "('undo' takes a step back for free; 'cancel' withdraws and counts as a pass)",
    "respond": "an offer is addressed to you: accept (only if you hold the wanted cards) or decline",
    "pick": "several players accepted your offer: choose one to trade with, or cancel",
    "choose_give": "the trade is being carried out: choose which of your cards you give for the wanted type",
    "plant_traded": "plant the cards you got in trades and kept from the trade area (BASE-7)",
    "leftovers": "the opponent left face-up cards: plant each one where it fits, or discard it",
    "discard_hand": "you may discard one hand card face up, or discard nothing",
    "turn_up": "turn up the next cards from the deck",
    "plant_face_up": "plant face-up cards you want; the rest stay for the opponent (done ends the step)",
    "yield": "the mafia is about to take cards: harvest first if you want, then continue (MAF-14)",
    "fill": "give hand cards to empty mafia fields (MAF-10)",
    "turn": "your turn: take regular actions a) play, b) merge, c) turn up, d) harvest, e) take over, "
            "play text cards, or end the turn (HT-4)",
    "copy": "you may copy the action just taken by the active player (HT-13), play a text card, or pass",
    "play": "you are playing hand cards of one type onto a field: add more of that type or confirm (HT-7)",
    "place": "put the turned-up card on one of your empty fields (HT-9)",
    "harvest": "you are harvesting: add pizza or Chemiekeule text cards, or carry out the harvest",
    "attack": "you are attempting a takeover: add text cards (Mächtiges / Variables Bohnenfeld, Starke "
              "Übernahme) or carry it out (HT-16)",
    "defend": "your field is attacked: lay a text card face down as defence, or do not defend (HT-12)",
    "override": "the target defended: play Starke Übernahme to win anyway, or accept the defence (TXT-16)",
    "show": "Samenhandel: show a hand card of a type not shown yet (five different types, TXT-14)",
    "seed_coin": "Samenhandel: choose the shown card that becomes a coin (TXT-14)",
    "seed_keep": "Samenhandel: discard the other four shown cards and draw five, or keep them (TXT-14)",
    "final": "final harvest: harvest your fields one by one (HT-19), or play text cards",
    "final_play": "Handkarten ausspielen bei Spielende: play hand cards onto your fields, then done (TXT-4)",
}
# mafia's `place` (MAF-9) and takeover's `place` (HT-9) share a name: the variant decides
_MAFIA_PLACE = "place whole face-up stacks on your fields or give them to the mafia's fields, then done (MAF-9)"

# The 18 text cards of hostile_takeover (TXT-1..18), in short.
TEXT_EFFECTS: tuple[str, ...] = (
    "swap the places of two fields of one player (one may be empty); protection and Jokerbohne move along",
    "with your harvest: pay by the beanometer of a type on another of your fields (not Garden or Red)",
    "take the top card of the discard pile into your hand",
    "at the final harvest: first play hand cards onto your fields (others may copy)",
    "with 1-5 hand cards: swap whole hands with another player; both then know both hands",
    "lay on your own Schnitt, Chili or Blue field: counts as one more card there (never a coin)",
    "with a takeover: your field counts one card more; the target cannot defend",
    "play or merge the type with the next higher handicap value onto a field; the field's type changes",
    "choose one of your fields: take the top bean from every other player's field in the same place of "
    "the same type",
    "pizza, before your harvest: 12-13 cards on your fields +1 coin, 14-16 +2, 17+ +3",
    "pizza, before your harvest: a field worth 4 coins with 1/2/3 cards fewer pays 5/6/7",
    "pizza, before your harvest: every field has at least 3/4/5 cards (2 players: 4/5/6): +1/+2/+3",
    "pizza, before your harvest: Schnitt + Garden + Red + Black-eyed cards 7-8 +1, 9-10 +2, 11+ +3",
    "with five types in hand: show five of different types, one becomes a coin; then redraw five or keep",
    "passive players only: shuffle your hand into the deck and draw seven",
    "with a takeover after a defence (or on a protected field): it succeeds; you get the defence card",
    "with a takeover: swap any of your fields for any weaker field of the target; cannot be defended",
    "harvest any one of your fields, even a one-card field (not an action d)",
)

HELP = """commands:
  NUMBER            take that action from the list (or type the action's text, e.g. 'plant field 1')
  offer TARGET [give CARDS] [want CARDS]
                    build and submit a whole offer; TARGET is all, a seat number or pN; CARDS are
                    bean names separated by commas, e.g.  offer all give red,blue want stink
                    (a trade-area card of that type if there is one, else a hand card);
                    2 soy = two soy; hand red / area red; #3 = hand card 3 (also red@3);
                    'give red for soy' = 'give red want soy'; where the list shows whole offers
                    ('offer red for soy to all'), cards are named by type only
  undo              take back the last step of the offer you are building (costs nothing)
  help, ?           this list
  q, quit           abandon the game
screen: '?' is a card you cannot see; hands are listed front first (you plant from the front);
  'run-outs' counts how often the deck ran out (the game ends at the limit); in hostile_takeover
  'd) used' means the harvest action was taken this turn and 'copying c) quota 2' means two more
  players may still copy action c)."""


def explain_decision(decision: str, variant: str) -> str:
    """The decision point in plain words."""
    if decision == "place" and variant in ("al_cabohne", "bean_solitaire"):
        return _MAFIA_PLACE
    return DECISIONS.get(decision, decision)


def beanometer_lines(game) -> list[str]:
    """The beanometers of the types in play: cards needed for 1, 2, 3 and 4 coins."""
    parts = []
    for t in sorted(game.rules.composition()):
        meter = TYPES[t].meter
        if all(m is None for m in meter):
            parts.append(f"{NAMES[t]}: special (CARD-3)")
        else:
            parts.append(f"{NAMES[t]} " + "/".join("-" if m is None else str(m) for m in meter))
    lines, line = [], "beanometers (cards for 1/2/3/4 coins):"
    fresh = True
    for part in parts:
        if len(line) + len(part) + 3 > 100:
            lines.append(line)
            line, fresh = "   ", True
        line += (" " if fresh else " | ") + part
        fresh = False
    lines.append(line)
    return lines


def label(action: Action, s, seat: int) -> str:
    """An action of ``seat`` labelled with card names, e.g. ``give red (hand card 12)`` (``s`` is the
    state as ``seat`` sees it)."""
    hand = s.hands[seat] if 0 <= seat < s.n else []

    def card(i: int) -> str:
        return card_name(hand[i]) if 0 <= i < len(hand) else "?"

    kind, a, b = action.kind, action.a, action.b
    if kind == Kind.PLANT and hand:
        return f"plant {card(0)} on field {a + 1}"
    if kind == Kind.GIVE_HAND and a >= 0:
        return f"give {card(a)} (hand card {a + 1})"
    if kind == Kind.DISCARD_HAND:
        return f"discard {card(a)} (hand card {a + 1})"
    if kind == Kind.GIVE_MAFIA:
        return f"give {card(a)} (hand card {a + 1}) to {BOSS_NAMES[b] if b < len(BOSS_NAMES) else b}"
    if kind == Kind.PLACE_STACK and b >= 3:
        return f"place {NAMES[a]} stack on {BOSS_NAMES[b - 3]}'s field" if b - 3 < len(BOSS_NAMES) else describe(action)
    if kind == Kind.OFFER:
        return "offer to all" if a == ALL else f"offer to player {a}"
    return describe(action)


def why_not(game, action: Action, seat: int) -> str:
    """Why ``action`` is not legal for ``seat`` at the current decision (best known reason)."""
    if game.current_player != seat:
        text = label(action, game.rules.mask(game.state, seat), seat)
        return f"'{text}' is not yours to decide: it is '{game.decision}' of P{game.current_player}"
    return step_reason(game.view(seat).state, game.rules, action, seat)


def _trade_partner(s, action: Action) -> int | None:
    """The seat that trades with the proposer if ``action`` starts or continues carrying out the offer
    (TRADE-4/5): the last answer with exactly one acceptor, a pick, or a choice at ``choose_give``."""
    if s.decision == "choose_give":
        return s.x_partner
    if s.decision == "pick":
        return action.a if action.kind == Kind.PICK else None
    if s.decision == "respond" and len(s.o_pending) == 1 and action.kind in (Kind.ACCEPT, Kind.DECLINE):
        accepted = s.o_accept + ([s.actor] if action.kind == Kind.ACCEPT else [])
        return accepted[0] if len(accepted) == 1 else None
    return None


# -- the session ----------------------------------------------------------------------------------------------
class Quit(Exception):
    """The person left the game (q, end of input)."""


class PlaySession:
    """One game of terminal play: the person at ``seat``, agents at the other seats."""

    def __init__(self, game, seat: int, agents: dict, names: dict, out: TextIO, inp: TextIO,
                 save: str | None = None):
        self.game, self.seat, self.agents, self.names = game, seat, agents, names
        self.out, self.inp, self.save = out, inp, save
        self.undo_base = None   # the game before the offer being built was started (free undo)
        self.undo_steps: list[Action] = []

    def say(self, text: str = "", end: str = "\n") -> None:
        print(text, end=end, file=self.out)

    # -- screen ----------------------------------------------------------------------------------------
    def screen(self) -> str:
        game, seat = self.game, self.seat
        s = game.rules.mask(game.state, seat)
        bar = "=" * 78
        lines = [bar, f"{s.variant} | turn {s.turn} | you are P{seat}"]
        lines.append(f"deck {len(s.deck)} cards | discard {len(s.discard)}"
                     + (f" (top {NAMES[s.discard[-1]]})" if s.discard else " (empty)")
                     + f" | run-outs {s.runouts} of {s.limit}")
        lines += beanometer_lines(game)
        lines.append("-" * 78)
        width = max(len(self.names.get(p, "you")) for p in range(s.n))
        for p in range(s.n):
            mark = ">" if p == s.active else " "
            who = "you" if p == seat else self.names.get(p, "")
            row = f"{mark} P{p} {who:<{width}} coins {len(s.coins[p]):2d} | fields {field_text(s, p)}"
            if p != seat:
                row += f" | hand {len(s.hands[p])}: {hand_text(s, p)}"
            if s.to_plant[p]:
                row += " | to plant " + " ".join(NAMES[c] for c in sorted(s.to_plant[p]))
            lines.append(row)
        extra = game.rules.render_extra(s)
        if extra:
            lines.append(extra)
        area = "trade area" if s.variant == "bohnanza" else "face-up cards"
        lines.append(f"{area}: " + (" ".join(NAMES[c] for c in sorted(s.face_up)) or "-"))
        if s.o_prop >= 0:
            lines.append(offer_text(s))
        lines.append("-" * 78)
        hand = s.hands[seat]
        if s.variant == "hostile_takeover":  # HT-3: a hand has no order, cards are named by type
            lines.append("your hand (no order): " + (" ".join(NAMES[c] for c in hand) or "empty"))
        else:
            lines.append("your hand (front first): " + ("  ".join(f"{i + 1}:{NAMES[c]}" for i, c in enumerate(hand))
                                                      or "empty"))
        texts = getattr(s, "texts", None)
        if texts is not None:
            lines.append("your text cards:" + ("" if texts[seat] else " none"))
            for c in texts[seat]:
                lines.append(f"  {TEXT_NAMES[c]}: {TEXT_EFFECTS[c]} (TXT-{c + 1})")
        history = mask_history(game.history, seat, game.state)
        if history:
            lines.append("last: " + "; ".join(str(a) for a in history[-6:]))
        return "\n".join(lines)

    def menu(self, legal: list[Action]) -> str:
        s = self.game.rules.mask(self.game.state, self.seat)
        lines = [f"decision '{s.decision}': {explain_decision(s.decision, s.variant)}"]
        listed = listed_actions(legal)
        lines += [f"  {k + 1:3d}. {label(legal[k], s, self.seat)}" for k in listed]
        note = whole_offer_note(self.game.view(self.seat), legal, listed)
        return "\n".join(lines + ([f"       {note}"] if note else []))

    # -- input -------------------------------------------------------------------------------------------
    def read(self, legal: list[Action]) -> str:
        trading = " offer ..., undo," if hasattr(self.game.rules, "trade_legal") else ""
        self.say(f"your choice (1-{len(legal)}, an action's text,{trading} help or q): ", end="")
        self.out.flush()
        line = self.inp.readline()
        if not line:
            self.say("\nend of input: game abandoned")
            raise Quit(1)
        return line.strip()

    def choose(self, legal: list[Action]) -> list[Action] | None:
        """The actions the person's next command stands for (None: the screen must be redrawn)."""
        s = self.game.rules.mask(self.game.state, self.seat)
        while True:
            text = self.read(legal)
            low = text.lower()
            if low in ("q", "quit", "exit"):
                self.say("game abandoned")
                raise Quit(1)
            if low in ("help", "?", "h"):
                self.say(HELP)
                continue
            if low == "undo":
                if self.undo_base is None:
                    self.say("nothing to undo: undo takes back steps of an offer you are building")
                    continue
                self.undo()
                return None
            if low.startswith("offer ") and not any(low == str(a) for a in legal):
                try:
                    return plan_offer(low, self.game.view(self.seat))
                except OfferError as exc:
                    self.say(f"offer not possible: {exc}")
                    continue
            if text.isdigit():
                k = int(text)
                if 1 <= k <= len(legal):
                    return [legal[k - 1]]
            else:
                for a in legal:
                    if low in (str(a).lower(), label(a, s, self.seat).lower()):
                        return [a]
            self.say(f"not a legal choice: {text!r}; enter a number from 1 to {len(legal)}"
                     + self.hint(text))

    def hint(self, text: str) -> str:
        """A reason for a typed action that names a known but illegal step (composition)."""
        if self.game.decision != "compose":
            return ""
        s = self.game.state
        for kind, rx in ((Kind.GIVE_HAND, r"give (?:hand card )?(\d+)$"), (Kind.WANT, r"want ([a-z_]+)$"),
                         (Kind.GIVE_TRADE, r"give trade-area ([a-z_]+)$"), (Kind.SUBMIT, r"submit( offer)?$")):
            m = re.match(rx, text.lower())
            if not m:
                continue
            if kind == Kind.GIVE_HAND:
                action = Action(kind, int(m.group(1)) - 1)
            elif kind == Kind.SUBMIT:
                action = Action(kind)
            elif m.group(1) in CODE:
                action = Action(kind, CODE[m.group(1)])
            else:
                return f" (unknown bean {m.group(1)!r})"
            return f"\n  why: {why_not(self.game, action, self.seat)}" if s.o_prop == self.seat else ""
        return ""

    def undo(self) -> None:
        """Take back the last step of the offer being built (the game before it, replayed)."""
        last = self.undo_steps.pop()
        self.game = self.undo_base.clone()
        for step in self.undo_steps:
            self.game.apply(step)
        self.show_followers()
        if not self.undo_steps:
            self.undo_base = None
        self.say(f"undone: {label(last, self.game.rules.mask(self.game.state, self.seat), self.seat)}")

    # -- playing ---------------------------------------------------------------------------------------
    def apply(self, action: Action) -> None:
        """Apply one action and report it (masked for the person), with the trade it completes."""
        game, s = self.game, self.game.state
        p = game.current_player
        partner = _trade_partner(s, action)
        if partner is not None:
            seen = game.rules.mask(s, self.seat)  # the given hand cards were shown at submission (INFO-2)
            trade = (s.o_prop, partner, [card_name(seen.hands[s.o_prop][i]) for i in s.o_hand]
                     + [NAMES[t] for t in s.o_trade], [NAMES[t] for t in s.o_want])
        if p == self.seat and s.decision in ("offer", "compose") and action.kind != Kind.PASS:
            if s.decision == "offer" and action.kind == Kind.OFFER:
                self.undo_base, self.undo_steps = game.clone(), []
            if self.undo_base is not None:
                self.undo_steps.append(action)
        game.apply(action)
        self.show_followers()
        if game.decision != "compose":
            self.undo_base, self.undo_steps = None, []
        if p != self.seat:
            shown = mask_history(game.history, self.seat, game.state)[-1]
            self.say(f"  player {p} ({self.names[p]}): {shown}")
        if partner is not None and game.state.o_prop == -1:  # carried out (not waiting for choose_give)
            prop, partner, give, want = trade
            self.say(f"trade done: P{prop} gives {', '.join(give) or 'nothing'} to P{partner} for "
                     f"{', '.join(want) or 'nothing'}")

    def run(self) -> int:
        try:
            return self._run()
        except Quit as exc:
            return int(exc.args[0]) if exc.args else 1
        except KeyboardInterrupt:
            self.say("\ninterrupted: game abandoned")
            return 130
        finally:
            self.write_record()

    def show_followers(self) -> None:
        """Agents that follow the public history (``observe(view)``, e.g. ``ppo``) see every action."""
        for q, agent in self.agents.items():
            if hasattr(agent, "observe"):
                agent.observe(self.game.view(q))

    def _run(self) -> int:
        self.show_followers()
        while not self.game.is_over and not self.game.is_truncated:
            game = self.game
            p = game.current_player
            legal = game.legal_actions()
            if p != self.seat:
                self.apply(self.agents[p].act(game.view(p), legal))
                continue
            self.say("\n" + self.screen())
            self.say(self.menu(legal))
            actions = self.choose(legal)
            for a in actions or []:
                self.apply(a)
        game = self.game
        self.say("\n" + game.render())
        winners = game.winners()
        result = "you win" if self.seat in winners else ("you lose" if winners else "no winner")
        shared = " (shared)" if self.seat in winners and len(winners) > 1 else ""
        self.say(f"scores {scores_text(game)}: {result}{shared}")
        return 0

    def write_record(self) -> None:
        if self.save:
            Path(self.save).write_text(json.dumps(self.game.record()))
            self.say(f"game record saved to {self.save} (bean-env replay {self.save})")


def run_play(args, out: TextIO, inp: TextIO) -> int:
    """``bean-env play``: set up the seats from the parsed arguments and play until the end; Ctrl-C
    leaves quietly (exit code 130)."""
    try:
        return _setup(args, out, inp).run()
    except KeyboardInterrupt:
        print("\ninterrupted: game abandoned", file=out)
        return 130


def _setup(args, out: TextIO, inp: TextIO) -> PlaySession:
    from . import new_game
    from bean_env.agents import make_agent
    from bean_env.agents.tournament import parse_options, parse_spec

    config = parse_options(args.option, args.variant)  # yes/no options of the variant also take 1/0
    game = new_game(args.variant, seed=args.seed, **config)
    n = game.num_players
    if not 0 <= args.seat < n:
        raise ValueError(f"bad seat {args.seat}; allowed: 0..{n - 1}")
    specs = list(args.opponents) or (["heuristic"] if n > 1 else [])
    while specs and len(specs) < n - 1:
        specs.append(specs[-1])
    if len(specs) > n - 1:
        raise ValueError(f"{args.variant} has {n} seats: give at most {n - 1} opponents, got {len(specs)}")
    agents, names = {}, {}
    others = [p for p in range(n) if p != args.seat]
    for k, (p, spec) in enumerate(zip(others, specs)):
        name, kw = parse_spec(spec)
        agents[p] = make_agent(name, seed=None if args.seed is None else args.seed * 100 + k, **kw)
        names[p] = spec
    print(f"{args.variant}: you are player {args.seat}"
          + "".join(f"; player {p} is {names[p]}" for p in others), file=out)
    print(f"seed {game.seed} (play this deal again with --seed {game.seed}); type help or ? for the commands",
          file=out)
    return PlaySession(game, args.seat, agents, names, out, inp, getattr(args, "save", None))
