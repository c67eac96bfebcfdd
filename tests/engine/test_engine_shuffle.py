"""COM-12 determinism: the engine's inline ``shuffle`` is ``random.Random.shuffle``, draw for draw."""
import random

from bean_env.engine.state import shuffle


def test_shuffle_matches_random_shuffle_com12():
    for seed in range(200):
        cards = list(range(seed % 130 if seed % 50 else 300 + seed))  # long lists too
        ours, theirs = random.Random(seed), random.Random(seed)
        a, b = list(cards), list(cards)
        shuffle(ours, a)
        theirs.shuffle(b)
        assert a == b
        assert ours.getrandbits(64) == theirs.getrandbits(64)  # the same draws were made


def test_shuffle_other_generators_use_their_own_shuffle():
    class Counting(random.Random):
        calls = 0

        def shuffle(self, x):
            Counting.calls += 1
            super().shuffle(x)

    cards = list(range(10))
    shuffle(Counting(1), cards)
    assert Counting.calls == 1 and sorted(cards) == list(range(10))
