"""The `hostile_takeover` rules family (HT-*, TXT-*): the rules (``rules``), their legal-action
generator (``legal``), hidden information (``info``), the text cards (``textcards``), shared constants
(``shared``), the env's action catalogue (``catalogue``) and exact positions for tests (``positions``)."""
from .rules import TakeoverRules

__all__ = ["TakeoverRules"]
